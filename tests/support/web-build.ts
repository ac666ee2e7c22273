import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

/** The newest modification time of the sources under `dir` (tests and node_modules aside). */
export function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.endsWith(".test.ts")) continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the web app into dist/web when it is missing or older than its sources. */
export async function ensureWebBuilt(root = process.cwd()): Promise<void> {
  const index = path.join(root, "dist/web/index.html");
  const sources = Math.max(newestMtime(path.join(root, "web")), newestMtime(path.join(root, "shared")));
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  // The production build's own steps (each page on its own): scripts/build.mjs.
  // NODE_ENV=production as `npm run build` has it: under vitest's NODE_ENV=test, Vite resolves
  // packages' "development" export conditions (Radix's dev warnings: ~200 bytes gzip more).
  execFileSync(process.execPath, [path.join(root, "scripts/build.mjs"), "--web-only"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
}
