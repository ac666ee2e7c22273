#!/usr/bin/env node
// `npm start`: builds what is missing or out of date, then runs the production server
//   node --enable-source-maps dist/server/index.mjs
// as a child in the same process group, forwarding signals and its exit code.
// Defaults come from the server's config: PORT 3000, DATA_DIR ./data, PGlite. Once the server
// answers /healthz, prints the address to open.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import path from "node:path";
import { isStale, outputs, root } from "./lib/freshness.mjs";

/**
 * Builds what is stale in a child process (`scripts/build.mjs`), so that this supervisor does
 * not keep Vite and esbuild in memory while the server runs.
 */
async function buildIfNeeded() {
  const server = isStale("server");
  const web = isStale("web");
  if (!server && !web) return;
  if (server) console.log("start: server bundle missing or older than server/ + shared/");
  if (web) console.log("start: web app missing or older than web/ + shared/");
  console.log(
    web
      ? `start: building ${server ? "the server and " : ""}the web app (about a minute on a first start)…`
      : "start: building the server (a few seconds)…",
  );
  const flags = server && web ? [] : [server ? "--server-only" : "--web-only"];
  const build = spawn(process.execPath, [path.join(root, "scripts/build.mjs"), ...flags], {
    cwd: root,
    stdio: "inherit",
  });
  const code = await new Promise((resolve) => {
    build.on("error", () => resolve(1));
    build.on("exit", (exitCode, signal) => resolve(signal ? 1 : exitCode));
  });
  if (code !== 0) throw new Error(`scripts/build.mjs ${flags.join(" ")} exited with ${code}`);
}

/**
 * Where this machine reaches the server, as server/index.ts names it in its "listening" line
 * (PORT, default 3000; HOST, default every interface); null when PORT=0 or is not a port.
 */
function localUrl(env) {
  const port = Number(env.PORT || 3000);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return null;
  const host = env.HOST;
  const name =
    !host || host === "0.0.0.0" || host === "::"
      ? "localhost"
      : host.includes(":")
        ? `[${host}]`
        : host;
  return `http://${name}:${port}`;
}

/**
 * Asks GET /healthz until the server answers, then prints the address to open: the server's
 * own "listening" line is one JSON log line among others. Stops asking when the server exits.
 */
function announceWhenReady(child, started) {
  const url = localUrl(process.env);
  if (!url) return;
  const running = () => child.exitCode === null && child.signalCode === null;
  const ask = async () => {
    if (!running()) return;
    const ok = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
      (answer) => answer.ok,
      () => false,
    );
    // A server that could not listen (another process holds the port, and may answer) exits.
    if (!running()) return;
    if (!ok) {
      setTimeout(ask, 250).unref();
      return;
    }
    const seconds = Math.round((performance.now() - started) / 1000);
    const publicUrl = process.env.APP_URL?.replace(/\/$/, "");
    const also = publicUrl && publicUrl !== url ? ` (public address ${publicUrl})` : "";
    console.log(`start: ClientDesk is ready at ${url}${also} (${seconds} s after start)`);
  };
  setTimeout(ask, 250).unref();
}

async function main() {
  const started = performance.now();
  try {
    await buildIfNeeded();
  } catch (error) {
    console.error(`start: build failed: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }

  const child = spawn(
    process.execPath,
    ["--enable-source-maps", outputs.server, ...process.argv.slice(2)],
    { cwd: root, stdio: "inherit", env: process.env },
  );
  announceWhenReady(child, started);

  // A terminal's Ctrl+C reaches the whole group (the server ignores the repeat); a signal sent
  // to this process alone (npm, a supervisor) is passed on.
  const signals = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR2"];
  for (const signal of signals) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }

  // `kill <npm pid>`: npm passes the signal to its `sh -c`, which dies without passing it on,
  // leaving this process orphaned. Treat losing the parent as SIGTERM.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent && child.exitCode === null && child.signalCode === null) {
      console.error("start: parent process is gone: stopping the server");
      child.kill("SIGTERM");
    }
  }, 500).unref();

  child.on("error", (error) => {
    console.error(`start: could not run the server: ${error.message}`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (signal) process.exit(128 + (constants.signals[signal] ?? 0));
    process.exit(code ?? 1);
  });
}

main();
