/**
 * Makes `require("electron")` in CommonJS packages return a fake (electron-updater loads
 * Electron that way, not through an import vi.mock could replace). Node documents replacing
 * entries of require.cache; the entry is the path electron-updater itself resolves.
 */
import { createRequire, Module } from "node:module";

const require = createRequire(import.meta.url);
const electronPath = createRequire(require.resolve("electron-updater")).resolve("electron");

/** Until the returned function is called, require("electron") gives `fake`. */
export function provideElectronModule(fake: object): () => void {
  const previous = require.cache[electronPath];
  const module = new Module(electronPath);
  module.filename = electronPath;
  module.loaded = true;
  module.exports = fake;
  require.cache[electronPath] = module;
  return () => {
    if (previous) require.cache[electronPath] = previous;
    else delete require.cache[electronPath];
  };
}
