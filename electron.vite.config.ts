/**
 * electron-vite: builds the desktop app's three parts into out/.
 *   out/main/index.js       main process (ESM; Electron and Node built-ins external, zod bundled)
 *   out/preload/index.cjs   preload (CommonJS: sandboxed preloads cannot be ES modules)
 *   out/renderer/           the owner app from web/, mounted by desktop/renderer/main.tsx
 *   out/package.json        the packaged app's manifest (electron-builder's app directory)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "electron-vite";
import type { Plugin, Rollup } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));
// CLIENTDESK_DESKTOP_OUT_DIR: another folder of the project (each test file that builds the
// app builds into its own, tests/support/desktop-build.ts, so that builds never race).
const out = `${root}${process.env.CLIENTDESK_DESKTOP_OUT_DIR ?? "out"}`;

/**
 * The packaged app needs a package.json of its own: every part is bundled, so it declares
 * no dependencies and electron-builder packs none of the server's node_modules.
 */
function appManifest(): Plugin {
  return {
    name: "clientdesk-app-manifest",
    apply: "build",
    closeBundle() {
      const project = JSON.parse(readFileSync(`${root}package.json`, "utf8"));
      const manifest = {
        name: "clientdesk-desktop",
        productName: "ClientDesk",
        version: project.version,
        description: project.description,
        author: "ClientDesk",
        license: "UNLICENSED",
        private: true,
        type: "module",
        main: "main/index.js",
      };
      writeFileSync(`${out}/package.json`, `${JSON.stringify(manifest, null, 2)}\n`);
    },
  };
}

/**
 * electron-vite makes production asset URLs relative ("./assets/..."); the renderer is served
 * from the root of app://clientdesk/, so absolute URLs also work on any route after a reload.
 */
function absoluteBase(): Plugin {
  return { name: "clientdesk-absolute-base", config: () => ({ base: "/" }) };
}

/**
 * Rollup warnings that say nothing about our code, printed by every build and easy to take for
 * a failure: "use client" directives (for React Server Components, meaningless here), and zod's
 * comments that Rollup cannot read as annotations (it drops them; the output is the same).
 */
const onwarn: Rollup.WarningHandlerWithDefault = (warning, warn) => {
  if (warning.code === "MODULE_LEVEL_DIRECTIVE") return;
  if (warning.code === "INVALID_ANNOTATION" && warning.id?.includes("/node_modules/")) return;
  warn(warning);
};

export default defineConfig({
  main: {
    build: {
      outDir: `${out}/main`,
      // Bundle zod and our own modules; only electron and Node built-ins stay external.
      externalizeDeps: false,
      rollupOptions: { input: { index: `${root}desktop/main/index.ts` }, onwarn },
    },
    plugins: [appManifest()],
  },
  preload: {
    build: {
      outDir: `${out}/preload`,
      externalizeDeps: false,
      rollupOptions: {
        input: { index: `${root}desktop/preload/index.ts` },
        output: { format: "cjs", entryFileNames: "[name].cjs" },
        onwarn,
      },
    },
  },
  renderer: {
    root: `${root}desktop/renderer`,
    publicDir: `${root}web/public`,
    esbuild: { jsx: "automatic" },
    plugins: [absoluteBase()],
    build: {
      outDir: `${out}/renderer`,
      emptyOutDir: true,
      minify: true,
      // The owner app's entry is about 565 kB and pdf.js 460 kB (loaded with the PDF viewer):
      // see web/vite.config.ts, which sets the same limit.
      chunkSizeWarningLimit: 700,
      rollupOptions: {
        input: { index: `${root}desktop/renderer/index.html` },
        onwarn,
      },
    },
    server: { port: 5174, strictPort: true },
  },
});
