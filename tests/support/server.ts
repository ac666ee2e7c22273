import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Model } from "objection";
import { createApp } from "../../server/app";
import { loadConfig } from "../../server/config";
import type { Clock } from "../../server/clock";
import type { Services } from "../../server/context";
import { connectionUrl, type Database, isPglite } from "../../server/db/connection";
import { receiveEmailReply } from "../../server/commands/receive-email-reply";
import { type InboundSmtp, startInboundSmtp } from "../../server/inbound/smtp-listener";
import { JOBS } from "../../server/jobs";
import { type JobRunner, startJobs } from "../../server/jobs/job-runner";
import { createLogger } from "../../server/logger";
import { createRateLimiter } from "../../server/security/rate-limiter";
import {
  attachRealtimeSockets,
  type RealtimeSocketServer,
  type SocketServerOptions,
} from "../../server/realtime/socket-server";
import { checkApiAnswer } from "./api-contract";
import { TestClock } from "./clock";
import { testDatabase } from "./database";
import { TestSmtpServer } from "./smtp";

export interface TestServerOptions {
  clock?: Clock;
  env?: Record<string, string>;
  /** Share a database between servers (e.g. two instances); otherwise one is made. */
  db?: Database;
  /** Websocket settings, e.g. a short heartbeat. */
  realtime?: Partial<SocketServerOptions>;
  /**
   * Where this server's rate limits are kept: servers given the same prefix on one PostgreSQL
   * share their budgets, as instances do. By default each server has its own, because test
   * files running at once share the database (and all come from 127.0.0.1).
   */
  rateLimitKeyPrefix?: string;
  /**
   * The mail outbox's queue: servers given the same one send each other's mail, as instances
   * do. By default each server has its own, so that its mail reaches its own SMTP server.
   */
  mailQueue?: string;
  /** Receives the log lines (LOG_LEVEL comes from env, else TEST_LOG_LEVEL, else silent). */
  logDestination?: { write(line: string): void };
  /**
   * Reply by email: INBOUND_SMTP_PORT on a free port of 127.0.0.1 with INBOUND_EMAIL_DOMAIN
   * TEST_INBOUND_DOMAIN (unless env names another), and the listener started (server.inbound).
   */
  inboundSmtp?: boolean;
}

export const TEST_INBOUND_DOMAIN = "reply.clientdesk.test";

export interface TestServer {
  url: string;
  origin: string;
  db: Database;
  services: Services;
  smtp: TestSmtpServer;
  /** The reply-by-email listener, with inboundSmtp: true. */
  inbound?: InboundSmtp;
  /** The /ws endpoint of this server. */
  sockets: RealtimeSocketServer;
  /** Background jobs without timers: a test runs a pass with jobs.runOnce(name). */
  jobs: JobRunner;
  clock: Clock;
  dataDir: string;
  agent(): TestAgent;
  /**
   * Waits for the domain events under way and the work queued after answers, then has the mail outbox send what is due now (an
   * SMTP refusal waits for its retry: move the clock and run the `mail-outbox` job).
   */
  mailSettled(): Promise<void>;
  close(): Promise<void>;
}

/** The real app on a free port, with its own data directory and a real SMTP server. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const db = options.db ?? (await testDatabase());
  // For the tests' own row checks (User.query() in a test file) only: the server binds no
  // global knex and passes its handle to every query (lint: biome/explicit-db-handle.grit).
  Model.knex(db);
  const smtp = new TestSmtpServer();
  const smtpUrl = await smtp.start();
  const server = http.createServer();
  // No server-side keep-alive timeout: the test's fetch client closes its idle connections
  // itself. With Node's 5 s timeout, a test process whose event loop stalled (in-process PGlite
  // inserting 10,000 rows on a loaded machine) could fire the server's close and send the next
  // request on that same socket at once: ECONNRESET. close() below ends every connection.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "clientdesk-test-"));
  const config = loadConfig({
    NODE_ENV: "test",
    PORT: String(port),
    APP_URL: url,
    DATA_DIR: dataDir,
    SESSION_SECRET: "test-secret-test-secret-test-secret-42",
    SMTP_URL: smtpUrl,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    // On PostgreSQL, websocket events fan out between instances through LISTEN/NOTIFY.
    ...(isPglite(db) ? {} : { DATABASE_URL: connectionString(db) }),
    ...(options.inboundSmtp
      ? { INBOUND_SMTP_PORT: "0", INBOUND_EMAIL_DOMAIN: TEST_INBOUND_DOMAIN }
      : {}),
    ...options.env,
  });
  const clock = options.clock ?? new TestClock();
  const { app, services } = createApp({
    config,
    db,
    logger: createLogger(config.logLevel, options.logDestination),
    clock,
    rateLimiter: createRateLimiter(db, {
      keyPrefix: options.rateLimitKeyPrefix ?? `test-${randomUUID()}`,
    }),
    mailQueue: options.mailQueue ?? `test-${randomUUID()}`,
  });
  server.on("request", app.callback());
  const sockets = attachRealtimeSockets(server, services, options.realtime);
  await services.realtime.start();
  const jobs = startJobs(services, JOBS, { timers: false });
  const inbound =
    options.inboundSmtp && config.inboundMail
      ? await startInboundSmtp(
          services,
          { ...config.inboundMail, host: "127.0.0.1" },
          receiveEmailReply,
        )
      : undefined;
  return {
    url,
    origin: url,
    db,
    services,
    smtp,
    inbound,
    sockets,
    jobs,
    clock,
    dataDir,
    agent: () => new TestAgent(url),
    async mailSettled() {
      await services.events.idle();
      await services.afterAnswer.idle();
      await services.outbox.deliverDue();
    },
    async close() {
      await jobs.stop();
      await inbound?.close();
      await services.events.idle();
      await services.afterAnswer.idle();
      await services.outbox.idle();
      await sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.outbox.close();
      await services.events.idle();
      await services.realtime.close();
      await smtp.stop();
      if (!options.db) await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function connectionString(db: Database): string {
  const own = connectionUrl(db);
  if (own) return own;
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("a PostgreSQL test database needs TEST_DATABASE_URL");
  return url;
}

export interface TestResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A browser-like caller: keeps cookies and sends Origin on writes. */
export class TestAgent {
  private cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async request<T = any>(
    method: string,
    urlPath: string,
    init: { json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader;
    if (!["GET", "HEAD"].includes(method) && !("origin" in headers)) headers.origin = this.baseUrl;
    let body = init.body;
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    }
    const response = await fetch(`${this.baseUrl}${urlPath}`, {
      method,
      headers,
      body,
      redirect: "manual",
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...rest] = (pair ?? "").split("=");
      const value = rest.join("=");
      if (!name) continue;
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    const contentType = response.headers.get("content-type") ?? "";
    let parsed: unknown = text;
    if (contentType.includes("application/json")) parsed = JSON.parse(text);
    // Every API answer a test receives is checked against its shared schema.
    checkApiAnswer({
      method,
      url: response.url,
      status: response.status,
      contentType,
      text,
      body: parsed,
    });
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = any>(urlPath: string, headers?: Record<string, string>) {
    return this.request<T>("GET", urlPath, { headers });
  }
  post<T = any>(urlPath: string, json?: unknown, headers?: Record<string, string>) {
    return this.request<T>("POST", urlPath, { json, headers });
  }
  patch<T = any>(urlPath: string, json?: unknown, headers?: Record<string, string>) {
    return this.request<T>("PATCH", urlPath, { json, headers });
  }
  put<T = any>(urlPath: string, json?: unknown, headers?: Record<string, string>) {
    return this.request<T>("PUT", urlPath, { json, headers });
  }
  delete<T = any>(urlPath: string, headers?: Record<string, string>) {
    return this.request<T>("DELETE", urlPath, { headers });
  }
}
