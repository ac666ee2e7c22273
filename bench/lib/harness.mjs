// Shared pieces for the benchmarks: free ports, the production server in a child process,
// scratch PostgreSQL databases, signing up through the API, and small statistics.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));
export const serverBundle = path.join(root, "dist/server/index.mjs");

/** The PostgreSQL server the benches use; a scratch database is made on it per use. */
export const adminDatabaseUrl =
  process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function freePort() {
  const server = net.createServer();
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function tempDir(label) {
  return mkdtempSync(path.join(os.tmpdir(), `clientdesk-bench-${label}-`));
}

/**
 * Spawns a Node script with stdout/stderr going to a log file, and returns a handle that can
 * wait for a URL to answer 200 and stop the process (SIGTERM, then SIGKILL).
 */
export function spawnProcess(args, { env = {}, logFile, cwd = root } = {}) {
  const fd = openSync(logFile, "a");
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", fd, fd],
  });
  const exited = new Promise((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    logFile,
    exited,
    /** The last lines of the log, for error messages. */
    tail(lines = 15) {
      try {
        return readFileSync(logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
      } catch {
        return "";
      }
    },
    async stop(timeoutMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/** Polls `url` until it answers 200; returns the time it did (performance.now()). */
export async function waitFor200(url, handle, { timeoutMs = 60_000, intervalMs = 10 } = {}) {
  const deadline = performance.now() + timeoutMs;
  let exit = null;
  handle.exited.then((result) => {
    exit = result;
  });
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now();
    } catch {
      // not listening yet
    }
    if (exit) {
      throw new Error(
        `process exited (${exit.signal ?? `code ${exit.code}`}) before ${url} answered:\n${handle.tail()}`,
      );
    }
    if (performance.now() > deadline) {
      throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${handle.tail()}`);
    }
    await sleep(intervalMs);
  }
}

/**
 * Starts the production bundle (`node dist/server/index.mjs`) on a free port with its own
 * DATA_DIR; resolves once /healthz answers 200, with the time that took from spawn.
 */
export async function startServer({
  dataDir,
  databaseUrl,
  env = {},
  label = "server",
  bundle = serverBundle,
  cwd = root,
} = {}) {
  const port = await freePort();
  const dir = dataDir ?? tempDir(label);
  mkdirSync(dir, { recursive: true });
  const url = `http://localhost:${port}`;
  // Production has no dev mailbox: a local SMTP server keeps the mail where signUp reads it.
  const mail = await startMailCatcher(path.join(dir, "mail"));
  const started = performance.now();
  // BENCH_SERVER_NODE_ARGS: extra node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const handle = spawnProcess([...nodeArgs, "--enable-source-maps", bundle], {
    env: {
      PORT: String(port),
      APP_URL: url,
      DATA_DIR: dir,
      DATABASE_URL: databaseUrl ?? "",
      NODE_ENV: "production",
      SMTP_URL: mail.url,
      BILLING_MODE: "test",
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
      ...env,
    },
    logFile: path.join(dir, `bench-server-${port}.log`),
    // The server serves dist/web from its working directory (another checkout's, for a baseline).
    cwd,
  });
  const stop = async (timeoutMs) => {
    const result = await handle.stop(timeoutMs);
    await mail.close();
    return result;
  };
  try {
    const ready = await waitFor200(`${url}/healthz`, handle);
    return { ...handle, stop, port, url, dataDir: dir, startMs: ready - started };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** An SMTP server on a free port that writes each message to `dir` as `<n>.eml`. */
async function startMailCatcher(dir) {
  const { SMTPServer } = await import("smtp-server");
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks = [];
      stream.on("data", (chunk) => chunks.push(chunk));
      stream.on("end", () => {
        count += 1;
        writeFileSync(
          path.join(dir, `${String(count).padStart(6, "0")}.eml`),
          Buffer.concat(chunks),
        );
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function pgClient(url) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  return client;
}

/** Whether the bench PostgreSQL server answers; the reason when it does not. */
export async function postgresAvailable() {
  try {
    const client = await pgClient(adminDatabaseUrl);
    await client.end();
    return { available: true };
  } catch (error) {
    return { available: false, reason: `${adminDatabaseUrl}: ${error.message}` };
  }
}

/** Creates an empty database `bench_<random>` on the bench server; drop() removes it. */
export async function scratchDatabase() {
  const name = `bench_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = await pgClient(adminDatabaseUrl);
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = await pgClient(adminDatabaseUrl);
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * Signs a new owner up through the API, reads the code from the mail caught for this server
 * (.eml files under DATA_DIR/mail, as a dev mailbox keeps them), verifies, and returns the session cookie. One sign-up per server: the
 * server limits mail per address and code checks per IP.
 */
export async function signUp(server) {
  const email = `bench-${randomBytes(4).toString("hex")}@example.test`;
  const headers = { "content-type": "application/json", origin: server.url };
  const registered = await fetch(`${server.url}/api/register`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      email,
      password: "correct horse battery staple",
      fullName: "Bench Owner",
      role: "owner",
      accountTier: "free",
    }),
  });
  if (registered.status !== 201) {
    throw new Error(`register: ${registered.status} ${await registered.text()}`);
  }
  const code = await codeFromMailbox(path.join(server.dataDir, "mail"), email);
  const verified = await fetch(`${server.url}/api/verify-email`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email, code }),
  });
  if (verified.status !== 200) {
    throw new Error(`verify-email: ${verified.status} ${await verified.text()}`);
  }
  const sid = verified.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .find((pair) => pair.startsWith("sid="));
  if (!sid) throw new Error("verify-email set no sid cookie");
  return { email, cookie: sid };
}

async function codeFromMailbox(mailDir, email, timeoutMs = 10_000) {
  const { simpleParser } = await import("mailparser");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let files = [];
    try {
      files = readdirSync(mailDir).filter((name) => name.endsWith(".eml"));
    } catch {
      // no mail yet
    }
    for (const file of files.sort().reverse()) {
      const mail = await simpleParser(readFileSync(path.join(mailDir, file)));
      const to = [mail.to ?? []].flat().flatMap((address) => address.value.map((v) => v.address));
      if (!to.includes(email)) continue;
      const code = `${mail.subject ?? ""}\n${mail.text ?? ""}`.match(/\b(\d{6})\b/)?.[1];
      if (code) return code;
    }
    if (Date.now() > deadline) throw new Error(`no code mailed to ${email} in ${mailDir}`);
    await sleep(50);
  }
}

/** Median, min and max of `values`, rounded to `digits` (ratios want more than one). */
export function stats(values, digits = 1) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return {
    runs: sorted.length,
    median: round(median, digits),
    min: round(sorted[0], digits),
    max: round(sorted.at(-1), digits),
    values: values.map((value) => round(value, digits)),
  };
}

export const round = (value, digits = 1) => Number(value.toFixed(digits));

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}
