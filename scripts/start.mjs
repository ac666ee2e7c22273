#!/usr/bin/env node
// `npm start`: builds what is missing or out of date, then runs the production server
//   node --enable-source-maps dist/server/index.mjs
// as a child in the same process group, forwarding signals and its exit code.
// Defaults come from the server's config: PORT 3000, DATA_DIR ./data, PGlite.
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

async function main() {
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
