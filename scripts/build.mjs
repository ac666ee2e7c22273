#!/usr/bin/env node
// Production build: the server bundle (esbuild) and the web app (Vite).
//   node scripts/build.mjs [--server-only | --web-only]
import path from "node:path";
import { pathToFileURL } from "node:url";
import { outputs, root } from "./lib/freshness.mjs";
import { precompress } from "./lib/precompress.mjs";

/** Bundles server/index.ts into dist/server/index.mjs; npm packages stay external. */
export async function buildServer() {
  const started = performance.now();
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ["server/index.ts"],
    outfile: outputs.server,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
  });
  if (result.errors.length > 0) throw new Error("server build failed");
  log(`server -> ${path.relative(root, outputs.server)}`, started);
}

/**
 * The web app's pages, each built on its own with web/vite.config.ts into dist/web. Built
 * together, Rollup would put every module both pages use into shared chunks with all the
 * exports either page needs: the dashboard's zod came along into the portal's first load.
 */
const WEB_PAGES = ["index.html", "client.html"];

export async function buildWeb() {
  const started = performance.now();
  const { build } = await import("vite");
  for (const [index, page] of WEB_PAGES.entries()) {
    await build({
      configFile: path.join(root, "web/vite.config.ts"),
      logLevel: "warn",
      build: { emptyOutDir: index === 0, rollupOptions: { input: path.join(root, "web", page) } },
    });
  }
  const webDir = path.dirname(outputs.web);
  await buildServiceWorker(webDir);
  log(`web -> ${path.relative(root, webDir)}`, started);
  // After both pages: the second build adds files to the first's (emptyOutDir only once).
  const compressing = performance.now();
  const { files, raw, br, gz } = await precompress(webDir);
  const kb = (bytes) => `${Math.round(bytes / 1024)} KB`;
  log(`${files} files precompressed (${kb(raw)} -> brotli ${kb(br)}, gzip ${kb(gz)})`, compressing);
}

/**
 * web/src/pwa/sw.ts -> dist/web/sw.js (served from the root: its scope is the whole app). Its
 * BUILD_ID names the pages it was built with, so every new build is a new worker, which
 * replaces the old one's cache.
 */
export async function buildServiceWorker(webDir) {
  const esbuild = await import("esbuild");
  const { createHash } = await import("node:crypto");
  const { readFileSync } = await import("node:fs");
  const hash = createHash("sha256");
  for (const page of WEB_PAGES) hash.update(readFileSync(path.join(webDir, page)));
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ["web/src/pwa/sw.ts"],
    outfile: path.join(webDir, "sw.js"),
    bundle: true,
    format: "iife",
    target: "es2022",
    minify: true,
    define: { BUILD_ID: JSON.stringify(hash.digest("hex").slice(0, 12)) },
    logLevel: "warning",
  });
  if (result.errors.length > 0) throw new Error("service worker build failed");
}

function log(what, started) {
  console.log(`built ${what} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function main(argv) {
  const known = new Set(["--server-only", "--web-only"]);
  const unknown = argv.filter((arg) => !known.has(arg));
  if (unknown.length > 0 || argv.length > 1) {
    console.error("usage: node scripts/build.mjs [--server-only | --web-only]");
    process.exit(2);
  }
  if (!argv.includes("--web-only")) await buildServer();
  if (!argv.includes("--server-only")) await buildWeb();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
