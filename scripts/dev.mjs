#!/usr/bin/env node
// `npm run dev`: the API server rebuilt by esbuild on every change and restarted, plus the
// Vite dev server for the web app (hot reload) that proxies /api, /auth/google and /ws to it.
//
//   http://localhost:5173   open this: Vite (web app), proxying to the API   (WEB_PORT)
//   http://localhost:3000   the API server (and the last production web build, if any)  (PORT)
//
// APP_URL defaults to the Vite address, since that is the Origin browsers send and where
// links in emails should point. DATA_DIR (./data) and DATABASE_URL work as for `npm start`.
import { spawn } from "node:child_process";
import path from "node:path";
import { root } from "./lib/freshness.mjs";

const apiPort = Number(process.env.PORT ?? 3000);
const webPort = Number(process.env.WEB_PORT ?? 5173);
const appUrl = process.env.APP_URL ?? `http://localhost:${webPort}`;
const bundle = path.join(root, "dist/dev/server.mjs");

let server = null;
let stopping = false;

function startServer() {
  server = spawn(process.execPath, ["--enable-source-maps", bundle], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, PORT: String(apiPort), APP_URL: appUrl },
  });
  const current = server;
  current.on("exit", (code, signal) => {
    if (server === current) server = null;
    if (!stopping && !current.restarting) {
      console.log(
        `[dev] server exited (${signal ?? `code ${code}`}); waiting for a change to restart it`,
      );
    }
  });
}

async function stopServer() {
  const current = server;
  if (!current || current.exitCode !== null || current.signalCode !== null) return;
  current.restarting = true;
  const exited = new Promise((resolve) => current.once("exit", resolve));
  current.kill("SIGTERM");
  const timer = setTimeout(() => current.kill("SIGKILL"), 12_000);
  await exited;
  clearTimeout(timer);
}

let restartChain = Promise.resolve();
function restartServer(reason) {
  restartChain = restartChain.then(async () => {
    if (stopping) return;
    if (server) console.log(`[dev] ${reason}: restarting the server`);
    await stopServer();
    if (!stopping) startServer();
  });
}

async function main() {
  const esbuild = await import("esbuild");
  let firstBuild = true;
  const context = await esbuild.context({
    absWorkingDir: root,
    entryPoints: ["server/index.ts"],
    outfile: bundle,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
    plugins: [
      {
        name: "restart-server",
        setup(build) {
          build.onEnd((result) => {
            if (result.errors.length > 0) {
              console.log("[dev] server build failed; keeping the running server");
              return;
            }
            restartServer(firstBuild ? "built" : "server/ or shared/ changed");
            firstBuild = false;
          });
        },
      },
    ],
  });
  await context.watch();

  const { createServer } = await import("vite");
  const target = `http://localhost:${apiPort}`;
  const vite = await createServer({
    configFile: path.join(root, "web/vite.config.ts"),
    server: {
      port: webPort,
      strictPort: true,
      proxy: {
        "/api": { target },
        "/auth/google": { target },
        "/ws": { target, ws: true },
      },
    },
  });
  await vite.listen();
  console.log(`[dev] web app (Vite): http://localhost:${webPort}  ->  API server: ${target}`);
  vite.printUrls();

  const shutdown = async (signal) => {
    if (stopping) return;
    stopping = true;
    console.log(`[dev] ${signal}: stopping`);
    await Promise.allSettled([context.dispose(), vite.close(), stopServer()]);
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error) => {
  console.error(error);
  stopping = true;
  server?.kill("SIGTERM");
  process.exit(1);
});
