import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createDatabase, type Database } from "../../server/db/connection";
import { emptyPostgres } from "./database";
import { TestAgent } from "./server";
import {
  ensureServerBuilt,
  freePort,
  type ServerProcess,
  startServerProcess,
} from "./server-process";
import { startS3rver } from "./s3rver";
import { TestSmtpServer } from "./smtp";

/** The balancer config the deployment ships: the test runs the same file. */
const HAPROXY_CONFIG = path.resolve(import.meta.dirname, "../../deploy/haproxy.cfg");
const HAPROXY = process.env.HAPROXY_PATH ?? "/usr/sbin/haproxy";

export interface ClusterInstance {
  /** The balancer's name for it (app1, app2, app3): what X-Served-By says. */
  name: string;
  port: number;
  /** The running process; null while stopped. */
  process: ServerProcess | null;
}

/** HAProxy's word for a server: UP, DOWN, MAINT, DRAIN, NOLB... */
export type ServerState = string;

export interface Cluster {
  /** The balancer: every request and socket of a test goes here. */
  url: string;
  smtp: TestSmtpServer;
  /** The cluster's own scratch database, for a test's checks (its instances migrated it). */
  db: Database;
  instances: ClusterInstance[];
  agent(): TestAgent;
  /** kill -9: resolves once the process is gone. */
  kill(name: string): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM: resolves once the process exited, with how long that took. */
  terminate(
    name: string,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
  /** Starts a stopped instance again on its port; resolves once the balancer sends it traffic. */
  restart(name: string): Promise<void>;
  /** The balancer's view of each instance (from its runtime API). */
  states(): Promise<Record<string, ServerState>>;
  /** Waits until the balancer sees `name` in `state` (UP once checks pass, DOWN once they fail). */
  waitForState(name: string, state: ServerState, timeoutMs?: number): Promise<void>;
  /** The keys in the instances' bucket (s3rver's own directory, not through the app). */
  bucketKeys(): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * Three production server processes (the built bundle) on one scratch PostgreSQL database,
 * behind HAProxy running deploy/haproxy.cfg, mailing into one real SMTP server. The
 * instances start together on the empty database (they migrate it between them). PostgreSQL
 * only: needs TEST_DATABASE_URL (a scratch database is created next to it and dropped).
 */
export async function startCluster(): Promise<Cluster> {
  const sharedUrl = process.env.TEST_DATABASE_URL;
  if (!sharedUrl) throw new Error("a cluster needs PostgreSQL: set TEST_DATABASE_URL");
  ensureServerBuilt();
  const size = 3; // deploy/haproxy.cfg names app1..app3
  const cleanup: (() => Promise<unknown> | unknown)[] = [];
  const stopAll = async () => {
    for (const step of cleanup.splice(0).reverse()) {
      try {
        await step();
      } catch {
        // keep cleaning up
      }
    }
  };
  try {
    const workDir = mkdtempSync(path.join(os.tmpdir(), "clientdesk-cluster-"));
    cleanup.push(() => rmSync(workDir, { recursive: true, force: true }));

    const scratch = await emptyPostgres(sharedUrl, "test_cluster");
    cleanup.push(() => scratch.drop());
    const databaseUrl = scratch.url;
    const smtp = new TestSmtpServer();
    await smtp.start();
    cleanup.push(() => smtp.stop());

    const balancerPort = await freePort();
    const url = `http://127.0.0.1:${balancerPort}`;
    const instances: ClusterInstance[] = [];
    for (let i = 1; i <= size; i += 1) {
      instances.push({ name: `app${i}`, port: await freePort(), process: null });
    }

    // The bytes live in one bucket (a real s3rver) that every instance reaches; each instance
    // has its own DATA_DIR, as separate machines would.
    const s3 = await startS3rver();
    cleanup.push(() => s3.stop());
    const instanceEnv: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      APP_URL: url,
      TRUST_PROXY: "true",
      SESSION_SECRET: `cluster-secret-${randomBytes(16).toString("hex")}`,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      BILLING_MODE: "off",
      LOG_LEVEL: "info",
      ...s3.env,
    };
    const startInstance = async (instance: ClusterInstance) => {
      const dataDir = path.join(workDir, instance.name);
      mkdirSync(dataDir, { recursive: true });
      instance.process = await startServerProcess({
        dataDir,
        env: instanceEnv,
        port: instance.port,
      });
    };
    cleanup.push(() => Promise.all(instances.map((instance) => instance.process?.stop())));
    // Together, on the empty database: each migrates it (or waits for the one that does).
    // All settled before any failure is thrown: cleanup must find every process that started.
    const started = await Promise.allSettled(instances.map(startInstance));
    const failed = started.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;

    const statsSocket = path.join(workDir, "haproxy.sock");
    const balancer = await startHaproxy({
      workDir,
      env: {
        LISTEN_ADDR: `127.0.0.1:${balancerPort}`,
        STATS_SOCKET: statsSocket,
        CHECK_INTERVAL: "500ms",
        ...Object.fromEntries(
          instances.map((instance, i) => [`APP${i + 1}_ADDR`, `127.0.0.1:${instance.port}`]),
        ),
      },
    });
    cleanup.push(() => balancer.stop());

    const db = createDatabase({ url: databaseUrl, poolMax: 3 });
    cleanup.push(() => db.destroy());

    const instance = (name: string) => {
      const found = instances.find((candidate) => candidate.name === name);
      if (!found) throw new Error(`no instance ${name}`);
      return found;
    };
    const states = async () =>
      Object.fromEntries(
        Object.entries(await haproxyServers(statsSocket)).map(([name, server]) => [
          name,
          server.state,
        ]),
      );
    const waitForState = async (name: string, state: ServerState, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const current = (await states())[name];
        if (current === state) return;
        if (Date.now() > deadline)
          throw new Error(`${name} is ${current}, not ${state}, after ${timeoutMs} ms`);
        // The runtime API has no push: ask again shortly (checks run every 500 ms).
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const cluster: Cluster = {
      url,
      smtp,
      db,
      instances,
      agent: () => new TestAgent(url),
      async kill(name) {
        const target = instance(name);
        const running = target.process;
        if (!running) throw new Error(`${name} is not running`);
        running.child.kill("SIGKILL");
        const exit = await running.exited;
        target.process = null;
        return exit;
      },
      async terminate(name) {
        const target = instance(name);
        const running = target.process;
        if (!running) throw new Error(`${name} is not running`);
        const started = Date.now();
        running.child.kill("SIGTERM");
        const exit = await running.exited;
        target.process = null;
        return { ...exit, ms: Date.now() - started };
      },
      async restart(name) {
        const target = instance(name);
        if (target.process) throw new Error(`${name} is running`);
        await startInstance(target);
        await waitForState(name, "UP");
      },
      states,
      waitForState,
      bucketKeys: () => s3.keys(),
      stop: stopAll,
    };
    for (const { name } of instances) await waitForState(name, "UP");
    return cluster;
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** A fresh, empty database next to TEST_DATABASE_URL's, dropped at the end. */
export interface Balancer {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/**
 * haproxy in the foreground on deploy/haproxy.cfg with `env` (LISTEN_ADDR, APPn_ADDR,
 * STATS_SOCKET required here); resolves once its runtime API answers.
 */
export async function startHaproxy(options: {
  workDir: string;
  env: Record<string, string>;
}): Promise<Balancer> {
  const logFile = path.join(options.workDir, "haproxy.log");
  const fd = openSync(logFile, "a");
  const child = spawn(HAPROXY, ["-db", "-f", HAPROXY_CONFIG], {
    env: { PATH: process.env.PATH ?? "", ...options.env },
    stdio: ["ignore", fd, fd],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const output = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
  const stop = async () => {
    if (!gone) child.kill("SIGTERM");
    await exited;
  };
  const socket = options.env.STATS_SOCKET ?? "";
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (gone) throw new Error(`haproxy exited:\n${output().slice(-2000)}`);
    try {
      await runtimeCommand(socket, "show info");
      return { child, output, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`haproxy did not start:\n${output().slice(-2000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** One command on HAProxy's runtime API (a Unix socket), its whole answer. */
function runtimeCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.end(`${command}\n`));
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
  });
}

/**
 * The balancer's view of each instance (status: the first word, "UP" of "UP 1/2") and its last
 * check ("L7OK", "L4CON"...), from its runtime API.
 */
export async function haproxyServers(
  statsSocket: string,
): Promise<Record<string, { state: ServerState; check: string }>> {
  const csv = await runtimeCommand(statsSocket, "show stat");
  const lines = csv.trim().split("\n");
  const header = (lines[0] ?? "").replace(/^# /, "").split(",");
  const servers: Record<string, { state: ServerState; check: string }> = {};
  for (const line of lines.slice(1)) {
    const field = (name: string) => line.split(",")[header.indexOf(name)] ?? "";
    if (field("pxname") !== "app" || ["BACKEND", "FRONTEND"].includes(field("svname"))) continue;
    servers[field("svname")] = {
      state: field("status").split(" ")[0] ?? "",
      check: field("check_status"),
    };
  }
  return servers;
}
