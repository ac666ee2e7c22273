/**
 * Where the Electron-mode tests find an Electron binary and a display. The binary cannot be
 * downloaded on the project's machines (README, "Getting the Electron binary"), so these
 * tests run wherever one exists: ELECTRON_PATH, or the one `node node_modules/electron/install.js`
 * puts in node_modules/electron/dist. `.ci/run` prints one line when there is none.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

function installedBinary(): string {
  const dist = path.join(root, "node_modules/electron/dist");
  if (process.platform === "darwin") return path.join(dist, "Electron.app/Contents/MacOS/Electron");
  if (process.platform === "win32") return path.join(dist, "electron.exe");
  return path.join(dist, "electron");
}

/** The Electron binary to test with, or null when this machine has none. */
export function electronBinary(): string | null {
  const candidates = [process.env.ELECTRON_PATH, installedBinary()].filter(
    (candidate): candidate is string => Boolean(candidate),
  );
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}

export const NO_ELECTRON_MESSAGE =
  "Electron-mode tests (tests/electron): not run, no Electron binary here (set ELECTRON_PATH or run node node_modules/electron/install.js)";

/** A display for Electron's windows: the desktop's own, or an Xvfb started for the tests. */
export interface Display {
  env: Record<string, string>;
  stop(): void;
}

/**
 * Linux needs an X display (or Wayland); CI machines have none, so an Xvfb is started when
 * the command exists (Debian package xvfb). Elsewhere the desktop's own display is used.
 */
export async function startDisplay(): Promise<Display> {
  if (process.platform !== "linux" || process.env.DISPLAY || process.env.WAYLAND_DISPLAY) {
    return { env: {}, stop: () => {} };
  }
  const found = spawnSync("sh", ["-c", "command -v Xvfb"], { encoding: "utf8" });
  if (found.status !== 0) {
    throw new Error(
      "Electron-mode tests on Linux need a display: set DISPLAY or apt-get install xvfb",
    );
  }
  const display = `:${90 + Math.floor(Math.random() * 800)}`;
  const xvfb: ChildProcess = spawn(
    found.stdout.trim(),
    [display, "-screen", "0", "1400x900x24", "-nolisten", "tcp"],
    {
      stdio: "ignore",
    },
  );
  // Xvfb makes its socket when it is ready to take clients.
  const socket = `/tmp/.X11-unix/X${display.slice(1)}`;
  for (let waited = 0; !existsSync(socket); waited += 100) {
    if (waited > 10_000 || xvfb.exitCode !== null)
      throw new Error(`Xvfb did not start on ${display}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { env: { DISPLAY: display }, stop: () => xvfb.kill() };
}
