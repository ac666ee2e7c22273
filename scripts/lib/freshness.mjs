// Whether a build output is older than its sources (newest mtime of the source trees).
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));

export const outputs = {
  server: path.join(root, "dist/server/index.mjs"),
  web: path.join(root, "dist/web/index.html"),
};

export const sources = {
  server: ["server", "shared", "package.json"],
  web: ["web", "shared", "package.json"],
};

/** Newest mtime (ms) of the files under the given paths (relative to the repo root). */
export function newestMtime(paths) {
  let newest = 0;
  const visit = (full) => {
    const info = statSync(full, { throwIfNoEntry: false });
    if (!info) return;
    // A directory's mtime changes when a file in it is added, removed or renamed.
    newest = Math.max(newest, info.mtimeMs);
    if (!info.isDirectory()) return;
    for (const entry of readdirSync(full, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      if (/\.(test|spec)\.tsx?$/.test(entry.name)) continue;
      visit(path.join(full, entry.name));
    }
  };
  for (const p of paths) visit(path.join(root, p));
  return newest;
}

/** True when `which` ("server" | "web") has no output or an output older than its sources. */
export function isStale(which) {
  const output = outputs[which];
  if (!existsSync(output)) return true;
  return statSync(output).mtimeMs < newestMtime(sources[which]);
}
