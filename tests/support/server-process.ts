import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, openSync, readFileSync, statSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { newestMtime } from "./web-build";

const root = process.cwd();
/** The server bundle that `npm start` runs. */
export const serverBundle = path.join(root, "dist/server/index.mjs");
const bundle = serverBundle;

/** Builds dist/server/index.mjs (scripts/build.mjs) when missing or older than its sources. */
export function ensureServerBuilt(): void {
  const sources = Math.max(
    newestMtime(path.join(root, "server")),
    newestMtime(path.join(root, "shared")),
  );
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= sources) return;
  execFileSync(process.execPath, [path.join(root, "scripts/build.mjs"), "--server-only"], {
    cwd: root,
    stdio: "ignore",
  });
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then SIGKILL after 15 s. */
  stop(): Promise<unknown>;
}

/**
 * The production server (`node dist/server/index.mjs`, as `npm start` runs it) in a child
 * process on a free port; resolves once /healthz answers 200.
 */
export async function startServerProcess(options: {
  dataDir: string;
  env: Record<string, string>;
  /** A given port (e.g. an instance restarted behind a balancer that knows its address). */
  port?: number;
  /** The address it is reached at (the test's HOST); 127.0.0.1 by default. */
  host?: string;
}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://${options.host ?? "127.0.0.1"}:${port}`;
  const logFile = path.join(options.dataDir, `server-${port}.log`);
  const fd = openSync(logFile, "a");
  const child = spawn(process.execPath, ["--enable-source-maps", bundle], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      APP_URL: url,
      DATA_DIR: options.dataDir,
      NODE_ENV: "production",
      // Every interface unless the test names an address (a HOST of the caller's shell is not it).
      HOST: options.host ?? "",
      ...options.env,
    },
    stdio: ["ignore", fd, fd],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const output = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
  const handle: ServerProcess = {
    url,
    child,
    exited,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
  let exit: unknown = null;
  void exited.then((result) => {
    exit = result;
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.status === 200) return handle;
    } catch {
      // not listening yet
    }
    if (exit || Date.now() > deadline) {
      await handle.stop();
      throw new Error(`the server did not start:\n${output().slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
