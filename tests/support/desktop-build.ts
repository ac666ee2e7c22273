/**
 * The desktop app built by electron-vite for tests. Each test file builds into a folder of its
 * own under the project (out-<name>/, CLIENTDESK_DESKTOP_OUT_DIR), so files that build at the
 * same time never write into one another's output.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createAppProtocolHandler } from "../../desktop/main/protocol";

const root = path.resolve(import.meta.dirname, "../..");

/** Builds main, preload and renderer into out-<name>/ and returns that folder. */
export async function buildDesktopApp(name: string): Promise<string> {
  const folder = `out-${name}`;
  // Read by electron.vite.config.ts; each test file runs in a process of its own.
  process.env.CLIENTDESK_DESKTOP_OUT_DIR = folder;
  const { build } = await import("electron-vite");
  await build({ configFile: path.join(root, "electron.vite.config.ts"), logLevel: "warn" });
  return path.join(root, folder);
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
