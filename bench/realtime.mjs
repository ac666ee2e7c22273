// Live updates under load, on the production bundle, once on PGlite and once on PostgreSQL:
// CONVERSATIONS conversations (an owner and a client each, so twice as many websockets), text
// messages posted through POST /api/clients/{id}/messages at RATE per second for DURATION
// seconds (after WARMUP seconds at the same rate, not counted), senders alternating. Measures,
// at the websockets: send-to-delivery latency (from just before the POST to the new_message
// event), lost deliveries (each message is expected once at the owner's and once at the
// client's socket), duplicates, deliveries to a socket outside the conversation; at the server:
// POST latency, errors, peak memory (VmHWM, and VmRSS sampled during the run) and CPU.
// Targets (PostgreSQL, 2 cores): p99 <= 50 ms, nothing lost, nothing duplicated.
//
// Conversations, users and sessions are written straight into the database (the bench tests
// delivery, not sign-up): on PostgreSQL into a scratch database while the server runs; on
// PGlite into the server's data directory while the server is stopped (the server holds the
// embedded database exclusively while it runs), then the server is started again.
//
// Environment: BENCH_REALTIME_DURATION (s, default 60), BENCH_REALTIME_WARMUP (s, default 10),
// BENCH_REALTIME_RATE (messages/s, default 300), BENCH_REALTIME_CONVERSATIONS (default 500),
// BENCH_REALTIME_BACKENDS (pglite,postgres), BENCH_DATABASE_URL (see lib/harness.mjs).
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import path from "node:path";
import WebSocket from "ws";
import {
  postgresAvailable,
  removeDir,
  round,
  scratchDatabase,
  serverBundle,
  sleep,
  startServer,
  tempDir,
} from "./lib/harness.mjs";
import { makeSeed, seedConversations, withPglite, withPostgres } from "./lib/seed.mjs";

export const description =
  "websockets in 500 conversations, 300 messages/s: delivery latency, loss, duplicates, memory";

const TARGET_P99_MS = 50;

function settings(options = {}) {
  const env = (name, fallback) => Number(process.env[name] ?? fallback);
  return {
    conversations: options.conversations ?? env("BENCH_REALTIME_CONVERSATIONS", 500),
    rate: options.rate ?? env("BENCH_REALTIME_RATE", 300),
    durationS: options.durationS ?? env("BENCH_REALTIME_DURATION", 60),
    warmupS: options.warmupS ?? env("BENCH_REALTIME_WARMUP", 10),
    backends:
      options.backends ??
      (process.env.BENCH_REALTIME_BACKENDS ?? "pglite,postgres").split(",").map((s) => s.trim()),
    drainMs: options.drainMs ?? 5_000,
    /** false: a control run with no websockets open (the API's own cost, no deliveries). */
    sockets: options.sockets ?? process.env.BENCH_REALTIME_SOCKETS !== "0",
  };
}

export async function run(options = {}) {
  const log = options.log ?? console.log;
  if (!existsSync(serverBundle)) {
    throw new Error(
      `${path.relative(process.cwd(), serverBundle)} is missing: build it first (npm run build)`,
    );
  }
  const config = settings(options);
  const result = {
    conversations: config.conversations,
    sockets: config.sockets ? config.conversations * 2 : 0,
    ratePerS: config.rate,
    durationS: config.durationS,
    warmupS: config.warmupS,
    targetP99Ms: TARGET_P99_MS,
  };

  if (config.backends.includes("pglite")) {
    log("PGlite: seeding and starting");
    result.pglite = await scenario("pglite", config, log);
  }
  if (config.backends.includes("postgres")) {
    const pg = await postgresAvailable();
    if (!pg.available) {
      result.postgres = { skipped: pg.reason };
    } else {
      log("PostgreSQL: seeding and starting");
      const database = await scratchDatabase();
      try {
        result.postgres = await scenario("postgres", config, log, database.url);
      } finally {
        await database.drop();
      }
    }
  }
  const measured = [result.postgres].filter((r) => r && !r.skipped);
  result.meetsTarget = measured.length
    ? measured.every(
        (r) =>
          r.latencyMs?.p99 <= TARGET_P99_MS &&
          r.lost === 0 &&
          r.duplicates === 0 &&
          r.misdelivered === 0 &&
          r.errors.total === 0,
      )
    : null;
  if (options.print ?? !options.log) for (const line of summarize(result)) console.log(line);
  return result;
}

export function summarize(result) {
  const lines = [
    `${result.sockets} websockets in ${result.conversations} conversations, ${result.ratePerS} messages/s for ${result.durationS} s (after ${result.warmupS} s warm-up)`,
  ];
  for (const [label, key] of [
    ["PGlite", "pglite"],
    ["PostgreSQL", "postgres"],
  ]) {
    const r = result[key];
    if (!r) continue;
    if (r.skipped) {
      lines.push(`${label.padEnd(11)} SKIPPED: ${r.skipped}`);
      continue;
    }
    if (!r.latencyMs) {
      lines.push(
        `${label.padEnd(11)} control run, no websockets: POST p50 ${r.postLatencyMs.p50} ms p99 ${r.postLatencyMs.p99} ms | ` +
          `errors ${r.errors.total} | peak RSS ${r.server.peakRssMb} MB | ${r.achievedRatePerS} msg/s sent, server CPU ${r.server.cpuPercent}%`,
      );
      continue;
    }
    const verdict =
      key === "postgres"
        ? r.latencyMs?.p99 <= result.targetP99Ms &&
          r.lost === 0 &&
          r.duplicates === 0 &&
          r.misdelivered === 0 &&
          r.errors.total === 0
          ? "  (targets met)"
          : "  (TARGETS MISSED)"
        : "";
    const note =
      result.ratePerS === 300 && result.durationS >= 60 && result.sockets === 1000
        ? ""
        : " [not the issue's load: 1,000 sockets, 300/s, 60 s]";
    lines.push(
      `${label.padEnd(11)} delivery p50 ${r.latencyMs?.p50} ms  p99 ${r.latencyMs?.p99} ms  max ${r.latencyMs?.max} ms | ` +
        `lost ${r.lost}  duplicates ${r.duplicates}  misdelivered ${r.misdelivered}  errors ${r.errors.total} | ` +
        `peak RSS ${r.server.peakRssMb} MB | POST p50 ${r.postLatencyMs.p50} ms p99 ${r.postLatencyMs.p99} ms | ` +
        `${r.achievedRatePerS} msg/s sent, server CPU ${r.server.cpuPercent}%${verdict}${verdict ? note : ""}`,
    );
    lines.push(
      `${"".padEnd(11)} delivery p99 per 5 s of sending (ms): ${r.p99By5sMs.join(" ")}; load generator lag p99 ${r.loadGeneratorLagMs.p99} ms`,
    );
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------

async function scenario(backend, config, log, databaseUrl) {
  const dataDir = tempDir(`realtime-${backend}`);
  let server = await startServer({ dataDir, databaseUrl, label: `realtime-${backend}` });
  const sockets = [];
  try {
    const seeded = makeSeed(config.conversations);
    if (backend === "pglite") {
      // The server migrated the database; stop it to write into the embedded database.
      await server.stop();
      await withPglite(path.join(dataDir, "pglite"), (query) => seedConversations(query, seeded));
      server = await startServer({ dataDir, label: "realtime-pglite" });
    } else {
      await withPostgres(databaseUrl, (query) => seedConversations(query, seeded));
    }
    const pid = server.child.pid;
    const base = `http://127.0.0.1:${server.port}`;
    const origin = server.url;
    const socketCount = config.sockets ? seeded.length * 2 : 0;
    log(`${backend}: ${seeded.length} conversations seeded; opening ${socketCount} websockets`);

    const tracker = new Tracker(seeded.length);
    const openStarted = performance.now();
    await inBatches(socketCount, 50, async (index) => {
      const conversation = seeded[index >> 1];
      const token = index & 1 ? conversation.clientToken : conversation.ownerToken;
      sockets[index] = await openSocket(base, origin, token, index, tracker);
    });
    const openMs = performance.now() - openStarted;
    log(`${backend}: ${sockets.length} websockets open in ${Math.round(openMs)} ms`);

    const memory = new MemorySampler(pid);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    if (config.warmupS > 0) {
      log(`${backend}: warm-up ${config.warmupS} s at ${config.rate}/s`);
      await postAtRate({
        config,
        seconds: config.warmupS,
        seeded,
        base,
        origin,
        agent,
        tracker,
        phase: "warmup",
        offset: 0,
      });
    }
    log(`${backend}: measuring ${config.durationS} s at ${config.rate}/s`);
    const cpuBefore = cpuTicks(pid);
    // The load generator shares the machine: if its own event loop lags, latencies look worse.
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const measureStarted = performance.now();
    const sent = await postAtRate({
      config,
      seconds: config.durationS,
      seeded,
      base,
      origin,
      agent,
      tracker,
      phase: "measured",
      offset: Math.round(config.warmupS * config.rate),
    });
    const sendSeconds = (performance.now() - measureStarted) / 1000;
    const cpuAfter = cpuTicks(pid);
    lag.disable();
    if (config.sockets) await tracker.drain(config.drainMs);
    memory.stop();
    agent.destroy();

    const analysis = tracker.analyse("measured");
    if (!config.sockets) {
      // Control run: nothing was listening, so there is no delivery to measure.
      Object.assign(analysis, {
        lost: null,
        delivered: null,
        latencyMs: null,
        senderEchoLatencyMs: null,
      });
      analysis.p99By5sMs = [];
    }
    const clockTicks = 100; // USER_HZ on Linux
    const cpuPercent =
      cpuBefore !== null && cpuAfter !== null
        ? round(((cpuAfter - cpuBefore) / clockTicks / sendSeconds) * 100)
        : null;
    const result = {
      ...analysis,
      posted: sent,
      achievedRatePerS: round(sent / sendSeconds),
      socketsOpenMs: Math.round(openMs),
      loadGeneratorLagMs: { p99: round(lag.percentile(99) / 1e6), max: round(lag.max / 1e6) },
      socketsOpen: sockets.filter((socket) => socket?.readyState === WebSocket.OPEN).length,
      server: {
        peakRssMb: memory.peakHwmMb(),
        maxSampledRssMb: memory.maxRssMb,
        cpuPercent,
      },
    };
    log(
      `${backend}: p50 ${result.latencyMs?.p50} ms, p99 ${result.latencyMs?.p99} ms, lost ${result.lost}, ` +
        `duplicates ${result.duplicates}, errors ${result.errors.total}, peak RSS ${result.server.peakRssMb} MB`,
    );
    return result;
  } finally {
    for (const socket of sockets) socket?.terminate();
    await server.stop();
    removeDir(dataDir);
  }
}

// --- load -----------------------------------------------------------------------------------

function openSocket(base, origin, token, index, tracker) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace(/^http/, "ws")}/ws`, {
      origin,
      headers: { cookie: `sid=${token}` },
      handshakeTimeout: 10_000,
    });
    ws.on("message", (data) => tracker.arrived(index, data));
    ws.once("open", () => {
      ws.on("close", (code) => tracker.closed(index, code));
      resolve(ws);
    });
    ws.once("unexpected-response", (_req, res) => {
      ws.terminate();
      reject(new Error(`websocket ${index} refused: ${res.statusCode}`));
    });
    ws.on("error", (error) => {
      tracker.socketError(index, error);
      reject(error);
    });
  });
}

async function inBatches(count, concurrency, work) {
  let next = 0;
  const workers = Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const index = next++;
      await work(index);
    }
  });
  await Promise.all(workers);
}

/** Posts `rate` messages per second for `seconds`, round robin over the conversations. */
async function postAtRate({
  config,
  seconds,
  seeded,
  base,
  origin,
  agent,
  tracker,
  phase,
  offset,
}) {
  const total = Math.round(seconds * config.rate);
  const started = performance.now();
  const inFlight = new Set();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(
      total,
      Math.floor(((performance.now() - started) / 1000) * config.rate) + 1,
    );
    while (sent < due) {
      const seq = offset + sent;
      const conversationIndex = seq % seeded.length;
      const conversation = seeded[conversationIndex];
      // Senders alternate: each conversation's owner, then its client, and so on.
      const fromClient = (Math.floor(seq / seeded.length) + conversationIndex) % 2 === 1;
      const promise = postMessage({
        base,
        origin,
        agent,
        conversation,
        fromClient,
        seq,
        tracker,
        phase,
        conversationIndex,
      });
      inFlight.add(promise);
      promise.finally(() => inFlight.delete(promise));
      sent += 1;
    }
    await sleep(2);
  }
  await Promise.all(inFlight);
  return sent;
}

function postMessage({
  base,
  origin,
  agent,
  conversation,
  fromClient,
  seq,
  tracker,
  phase,
  conversationIndex,
}) {
  const body = JSON.stringify({ content: `bench message ${seq}` });
  const token = fromClient ? conversation.clientToken : conversation.ownerToken;
  return new Promise((resolve) => {
    const sentAt = performance.now();
    const request = http.request(
      `${base}/api/clients/${conversation.clientId}/messages`,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          cookie: `sid=${token}`,
          origin,
        },
        timeout: 30_000,
      },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => {
          const answeredAt = performance.now();
          const text = Buffer.concat(chunks).toString();
          if (response.statusCode !== 201) {
            tracker.httpError(phase, `${response.statusCode} ${text.slice(0, 120)}`);
            return resolve();
          }
          try {
            const { id } = JSON.parse(text);
            tracker.sent(id, { sentAt, answeredAt, conversationIndex, fromClient, phase });
          } catch {
            tracker.httpError(phase, `unparsable answer: ${text.slice(0, 120)}`);
          }
          resolve();
        });
        response.on("error", (error) => {
          tracker.httpError(phase, error.message);
          resolve();
        });
      },
    );
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", (error) => {
      tracker.httpError(phase, error.message);
      resolve();
    });
    request.end(body);
  });
}

/** Records what was sent and what arrived where, and works out latency, loss and duplicates. */
class Tracker {
  constructor(conversations) {
    this.conversations = conversations;
    this.messages = new Map(); // messageId -> { sentAt, answeredAt, conversationIndex, fromClient, phase }
    this.arrivals = []; // [socketIndex, messageId, at, type]
    this.errors = { http: 0, socket: 0, unexpectedClose: 0, samples: [] };
    this.errorsByPhase = { warmup: 0, measured: 0 };
    this.received = new Set(); // `${socket}:${messageId}` of expected deliveries seen
    this.expected = 0;
    this.waiting = null;
  }

  sent(messageId, info) {
    this.messages.set(messageId, info);
    this.expected += 2;
    // Deliveries that arrived before the POST's answer.
    this.checkDone();
  }

  arrived(socketIndex, data) {
    const at = performance.now();
    let event;
    try {
      event = JSON.parse(data.toString());
    } catch {
      this.errors.socket += 1;
      return;
    }
    this.arrivals.push([socketIndex, event.messageId, at, event.type]);
    if (event.type === "new_message") this.received.add(`${socketIndex}:${event.messageId}`);
    this.checkDone();
  }

  httpError(phase, message) {
    this.errors.http += 1;
    this.errorsByPhase[phase] += 1;
    if (this.errors.samples.length < 5) this.errors.samples.push(message);
  }

  socketError(_index, error) {
    this.errors.socket += 1;
    if (this.errors.samples.length < 5) this.errors.samples.push(`socket: ${error.message}`);
  }

  closed(index, code) {
    if (this.stopping) return;
    this.errors.unexpectedClose += 1;
    if (this.errors.samples.length < 5) this.errors.samples.push(`socket ${index} closed ${code}`);
  }

  checkDone() {
    if (this.waiting && this.received.size >= this.expected) this.waiting();
  }

  /** Waits until every expected delivery arrived, or `timeoutMs`. */
  async drain(timeoutMs) {
    if (this.received.size < this.expected) {
      await Promise.race([new Promise((resolve) => (this.waiting = resolve)), sleep(timeoutMs)]);
    }
    // Let late duplicates show up.
    await sleep(300);
    this.stopping = true;
  }

  analyse(phase) {
    const first = new Map(); // `${socket}:${id}` -> at
    let duplicates = 0;
    let misdelivered = 0;
    let unknown = 0;
    let otherTypes = 0;
    for (const [socketIndex, messageId, at, type] of this.arrivals) {
      if (type !== "new_message") {
        otherTypes += 1;
        continue;
      }
      const message = this.messages.get(messageId);
      if (!message) {
        unknown += 1;
        continue;
      }
      if (message.phase !== phase) continue;
      if (socketIndex >> 1 !== message.conversationIndex) {
        misdelivered += 1;
        continue;
      }
      const key = `${socketIndex}:${messageId}`;
      if (first.has(key)) duplicates += 1;
      else first.set(key, at);
    }
    const toRecipient = [];
    const toSender = [];
    const windows = new Map(); // 5-second window of the send -> recipient latencies
    let firstSend = Number.POSITIVE_INFINITY;
    for (const message of this.messages.values()) {
      if (message.phase === phase) firstSend = Math.min(firstSend, message.sentAt);
    }
    const post = [];
    let lost = 0;
    let expected = 0;
    for (const [messageId, message] of this.messages) {
      if (message.phase !== phase) continue;
      post.push(message.answeredAt - message.sentAt);
      for (const isClientSocket of [0, 1]) {
        expected += 1;
        const socketIndex = message.conversationIndex * 2 + isClientSocket;
        const at = first.get(`${socketIndex}:${messageId}`);
        if (at === undefined) {
          lost += 1;
          continue;
        }
        const isSender = Boolean(isClientSocket) === message.fromClient;
        (isSender ? toSender : toRecipient).push(at - message.sentAt);
        if (!isSender) {
          const window = Math.floor((message.sentAt - firstSend) / 5_000);
          if (!windows.has(window)) windows.set(window, []);
          windows.get(window).push(at - message.sentAt);
        }
      }
    }
    return {
      messages: post.length,
      expectedDeliveries: expected,
      delivered: toRecipient.length + toSender.length,
      lost,
      duplicates,
      misdelivered,
      unknownEvents: unknown,
      otherEventTypes: otherTypes,
      latencyMs: percentiles(toRecipient),
      /** p99 of each 5 s of sending: shows whether the tail is steady or comes in bursts. */
      p99By5sMs: [...windows.keys()]
        .sort((a, b) => a - b)
        .map((w) => percentiles(windows.get(w)).p99),
      senderEchoLatencyMs: percentiles(toSender),
      postLatencyMs: percentiles(post),
      errors: {
        total: this.errorsByPhase[phase] + this.errors.socket + this.errors.unexpectedClose,
        http: this.errorsByPhase[phase],
        httpWarmup: this.errorsByPhase.warmup,
        socket: this.errors.socket,
        unexpectedClose: this.errors.unexpectedClose,
        samples: this.errors.samples,
      },
    };
  }
}

function percentiles(values) {
  if (values.length === 0) return { count: 0, p50: null, p90: null, p99: null, max: null };
  const sorted = Float64Array.from(values).sort();
  const at = (q) => round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);
  return {
    count: sorted.length,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: round(sorted.at(-1)),
  };
}

// --- server process -------------------------------------------------------------------------

function procStatusKb(pid, field) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** utime + stime of the process, in clock ticks; null where /proc is not there. */
function cpuTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

class MemorySampler {
  constructor(pid) {
    this.pid = pid;
    this.maxRssMb = null;
    this.hwmKb = null;
    this.timer = setInterval(() => this.sample(), 250);
    this.sample();
  }

  sample() {
    const rss = procStatusKb(this.pid, "VmRSS");
    if (rss !== null) this.maxRssMb = Math.max(this.maxRssMb ?? 0, round(rss / 1024));
    const hwm = procStatusKb(this.pid, "VmHWM");
    if (hwm !== null) this.hwmKb = hwm;
  }

  stop() {
    this.sample();
    clearInterval(this.timer);
  }

  /** VmHWM: the process's peak resident memory since it started. */
  peakHwmMb() {
    return this.hwmKb === null ? null : round(this.hwmKb / 1024);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
