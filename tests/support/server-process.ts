import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { newestMtime } from "./web-build";

const root = process.cwd();
/** The server bundle that `npm start` runs. */
export const serverBundle = path.join(root, "dist/server/index.mjs");
const bundle = serverBundle;

/** Builds dist/server/index.mjs (scripts/build.mjs) when missing or older than its sources. */
export function ensureServerBuilt(): void {
  const sources = Math.max(
    newestMtime(path.join(root, "server")),
    newestMtime(path.join(root, "shared")),
  );
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= sources) return;
  execFileSync(process.execPath, [path.join(root, "scripts/build.mjs"), "--server-only"], {
    cwd: root,
    stdio: "ignore",
  });
}

/**
 * A port for a server this test starts (often in another process, which binds it later).
 * Taken below the kernel's ephemeral range (32768-60999 here), so no outgoing connection or
 * listen(0) of another test can take it between this check and the server's bind, and reserved
 * by an exclusive file naming this process, so two test processes (the PGlite and PostgreSQL
 * suites run at once) never hand out the same one. A reservation of a process that has ended
 * is free again.
 */
export async function freePort(): Promise<number> {
  mkdirSync(RESERVED_PORTS, { recursive: true });
  for (;;) {
    const port = 20_000 + randomInt(12_000);
    if (!reserve(port)) continue;
    if (await canListen(port)) return port;
  }
}

const RESERVED_PORTS = path.join(os.tmpdir(), "clientdesk-test-ports");

function reserve(port: number): boolean {
  const file = path.join(RESERVED_PORTS, String(port));
  try {
    writeFileSync(file, String(process.pid), { flag: "wx" });
    return true;
  } catch {
    const owner = Number(readFileSync(file, "utf8"));
    if (owner === process.pid || isAlive(owner)) return false;
    rmSync(file, { force: true });
    return reserve(port);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function canListen(port: number): Promise<boolean> {
  const server = net.createServer();
  const listening = await new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, resolve.bind(null, true));
  });
  if (listening) await new Promise((resolve) => server.close(resolve));
  return listening;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then SIGKILL after 15 s. */
  stop(): Promise<unknown>;
}

/**
 * The production server (`node dist/server/index.mjs`, as `npm start` runs it) in a child
 * process on a free port; resolves once /healthz answers 200.
 */
export async function startServerProcess(options: {
  dataDir: string;
  env: Record<string, string>;
  /** A given port (e.g. an instance restarted behind a balancer that knows its address). */
  port?: number;
  /** The address it is reached at (the test's HOST); 127.0.0.1 by default. */
  host?: string;
}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://${options.host ?? "127.0.0.1"}:${port}`;
  const logFile = path.join(options.dataDir, `server-${port}.log`);
  const fd = openSync(logFile, "a");
  const child = spawn(process.execPath, ["--enable-source-maps", bundle], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      APP_URL: url,
      DATA_DIR: options.dataDir,
      NODE_ENV: "production",
      // Every interface unless the test names an address (a HOST of the caller's shell is not it).
      HOST: options.host ?? "",
      ...options.env,
    },
    stdio: ["ignore", fd, fd],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const output = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
  const handle: ServerProcess = {
    url,
    child,
    exited,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
  let exit: unknown = null;
  void exited.then((result) => {
    exit = result;
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return handle;
    } catch {
      // not listening yet
    }
    if (exit || Date.now() > deadline) {
      await handle.stop();
      throw new Error(`the server did not start:\n${output().slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
