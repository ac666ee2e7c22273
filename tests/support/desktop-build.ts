/**
 * The desktop app built by electron-vite for tests. It is built once into out-tests/ (again only
 * when desktop/, web/, shared/ or the config are newer: the PostgreSQL run reuses the PGlite
 * run's build), and each test file gets a copy of its own (out-<name>/), so files never touch
 * one another's output.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { vi } from "vitest";
import { createAppProtocolHandler } from "../../desktop/main/protocol";
import { newestMtime } from "./web-build";

const root = path.resolve(import.meta.dirname, "../..");
const shared = path.join(root, "out-tests");
const builtMarker = path.join(shared, ".built");
const lock = path.join(root, "out-tests.lock");
// A folder too (out-*/ is ignored by git): its error file says why the build failed.
const failed = path.join(root, "out-tests.failed");
const failedMarker = path.join(failed, "error");
/** A lock older than this was left by a build that was killed: taken over. */
const STALE_LOCK_MS = 10 * 60_000;

function sourcesMtime(): number {
  return Math.max(
    ...["desktop", "web", "shared"].map((dir) => newestMtime(path.join(root, dir))),
    statSync(path.join(root, "electron.vite.config.ts")).mtimeMs,
  );
}

const upToDate = () => existsSync(builtMarker) && statSync(builtMarker).mtimeMs >= sourcesMtime();

/**
 * Builds out-tests/ unless it is up to date. Test files running at once take turns through a
 * lock folder: one builds, the others wait for its marker (or its failure).
 */
async function ensureSharedBuild(): Promise<void> {
  if (upToDate()) return;
  if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS)
    rmSync(lock, { recursive: true, force: true });
  try {
    mkdirSync(lock);
  } catch {
    // Another file is building: wait for it to release the lock, then for its outcome.
    await vi.waitFor(
      () => {
        if (existsSync(lock)) throw new Error("the desktop app is still being built");
      },
      { timeout: 300_000, interval: 200 },
    );
    if (existsSync(failedMarker)) throw new Error(readFileSync(failedMarker, "utf8"));
    if (!upToDate()) throw new Error("the desktop build another test file ran left no build");
    return;
  }
  rmSync(failed, { recursive: true, force: true });
  try {
    rmSync(shared, { recursive: true, force: true });
    // Read by electron.vite.config.ts; each test file runs in a process of its own.
    process.env.CLIENTDESK_DESKTOP_OUT_DIR = "out-tests";
    const { build } = await import("electron-vite");
    await build({ configFile: path.join(root, "electron.vite.config.ts"), logLevel: "warn" });
    writeFileSync(builtMarker, "");
  } catch (error) {
    mkdirSync(failed, { recursive: true });
    writeFileSync(failedMarker, String(error));
    throw error;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Main, preload and renderer in out-<name>/ (a copy of the shared build); returns that folder. */
export async function buildDesktopApp(name: string): Promise<string> {
  await ensureSharedBuild();
  const folder = path.join(root, `out-${name}`);
  rmSync(folder, { recursive: true, force: true });
  cpSync(shared, folder, { recursive: true });
  return folder;
}

export interface ServedRenderer {
  /** http://127.0.0.1:<port>: Chromium here has no app:// scheme. */
  origin: string;
  close(): Promise<void>;
}

/** Serves a built renderer with the app:// handler's own code, on a loopback port. */
export async function serveRenderer(outFolder: string, csp: string): Promise<ServedRenderer> {
  const handler = createAppProtocolHandler({
    rendererRoot: path.join(outFolder, "renderer"),
    csp,
  });
  const server: Server = createServer(async (req, res) => {
    const answer = await handler(new Request(`app://clientdesk${req.url ?? "/"}`));
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
