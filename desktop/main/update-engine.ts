/**
 * Picks electron-updater's updater for how the app was installed: NSIS on Windows, the zip on
 * macOS, the AppImage itself when run as one (APPIMAGE is set), the .deb when installed from
 * it (electron-builder writes "deb" into resources/package-type). Anything else (an unpacked
 * folder, a distribution's package) cannot update itself and gets none.
 *
 * electron-updater reaches Electron through require("electron") (its app adapter, and `net`
 * for downloads, so proxies and the system's certificates apply); tests make that module the
 * fake (desktop/test/electron-module.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { AppImageUpdater, DebUpdater, MacUpdater, NsisUpdater } from "electron-updater";
import type { UpdateEngine } from "./updater";

export type UpdaterKind = "nsis" | "mac" | "appimage" | "deb";

export interface InstallFacts {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** The contents of resources/package-type, if any. */
  packageType: string | null;
}

export function updaterKind({ platform, env, packageType }: InstallFacts): UpdaterKind | null {
  if (platform === "win32") return "nsis";
  if (platform === "darwin") return "mac";
  if (platform !== "linux") return null;
  if (env.APPIMAGE) return "appimage";
  return packageType === "deb" ? "deb" : null;
}

export function readPackageType(resourcesPath: string): string | null {
  try {
    return readFileSync(path.join(resourcesPath, "package-type"), "utf8").trim();
  } catch {
    return null;
  }
}

export function createUpdateEngine(facts: InstallFacts): UpdateEngine | null {
  switch (updaterKind(facts)) {
    case "nsis":
      return new NsisUpdater();
    case "mac":
      return new MacUpdater();
    case "appimage":
      return new AppImageUpdater();
    case "deb":
      return new DebUpdater();
    default:
      return null;
  }
}
