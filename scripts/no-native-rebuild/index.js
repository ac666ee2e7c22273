/**
 * Stands in for @electron/rebuild, which electron-builder (app-builder-lib) depends on.
 * package.json installs this folder in its place (a devDependency, and `overrides` for
 * app-builder-lib's copy): every @electron/rebuild 4 release (and its node-abi 4) declares
 * engines node >=22.12, so npm warns on Node 20, and the 3.x line fetches node-gyp from a
 * GitHub tarball.
 *
 * The desktop app needs no rebuild: electron-vite bundles everything into out/, it has no native
 * modules, and build/before-build.mjs returns false, so electron-builder never calls rebuild().
 * If that ever changes, packaging stops here with this message instead of shipping a module
 * built for the wrong ABI.
 */
import { EventEmitter } from "node:events";

/** Same shape as @electron/rebuild's result: a promise with a `lifecycle` emitter. */
export function rebuild() {
  const result = Promise.reject(
    new Error(
      "@electron/rebuild is not installed: package.json replaces it with scripts/no-native-rebuild, " +
        "because the desktop app has no native modules. To rebuild some, drop that devDependency " +
        "and its override (and expect npm to warn that @electron/rebuild wants Node 22.12).",
    ),
  );
  result.lifecycle = new EventEmitter();
  return result;
}
