// Live updates under load, on the production bundle against a durable floor, in the same run:
// CONVERSATIONS conversations (an owner and a client each, so twice as many websockets), text
// messages posted through POST /api/clients/{id}/messages at each of RATES per second for
// DURATION seconds (after WARMUP seconds at the same rate, not counted), senders alternating.
// On PostgreSQL the same load goes, rate by rate and alternating which goes first, to the
// product and to the durable floor (bench/fixtures/durable-floor.mjs: bare Node HTTP + ws, the
// message stored and NOTIFYed in one statement, one LISTEN pushing to the sockets), each on its
// own scratch database with its websockets open throughout. Measures, at the websockets:
// send-to-delivery latency (from just before the POST to the new_message event at the other
// side), lost deliveries (each message is expected once at the owner's and once at the
// client's socket), duplicates, deliveries to a socket outside the conversation; at the server:
// POST latency, errors, peak memory (VmHWM, and VmRSS sampled during the run), the server's CPU
// and the whole machine's (PostgreSQL and the load generator share it).
// Targets (issue 11, PostgreSQL, 2 cores, 1,000 sockets): 1,000 messages/s for 60 s with p99
// <= 50 ms, nothing lost, nothing duplicated; at 300/s, p99 within 2x of the floor's.
//
// Conversations, users and sessions are written straight into the database (the bench tests
// delivery, not sign-up): on PostgreSQL into a scratch database while the server runs; on
// PGlite into the server's data directory while the server is stopped (the server holds the
// embedded database exclusively while it runs), then the server is started again.
//
// Environment: BENCH_REALTIME_RATES (messages/s, comma-separated, default 300,600,1000; or
// BENCH_REALTIME_RATE for one), BENCH_REALTIME_PGLITE_RATES (default 300: PGlite saturates
// near 300/s), BENCH_REALTIME_DURATION (s, default 60), BENCH_REALTIME_WARMUP (s, default 10),
// BENCH_REALTIME_CONVERSATIONS (default 500), BENCH_REALTIME_FANOUT (sockets per conversation,
// the owner's side and the client's, default 1,1), BENCH_REALTIME_BACKENDS (pglite,postgres),
// BENCH_REALTIME_FLOOR (0: no floor), BENCH_REALTIME_PRODUCT (0: no product, e.g. the floor
// alone), BENCH_BASELINE_BUNDLE (the dist/server/index.mjs of an earlier build, or several
// separated by commas, each in a folder of the checkout so its packages resolve: measured as
// further targets on PostgreSQL, "baseline" or each named by its folder, for before/after in one
// run), BENCH_DATABASE_URL
// (see lib/harness.mjs).
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import path from "node:path";
import WebSocket from "ws";
import pg from "pg";
import {
  adminDatabaseUrl,
  postgresAvailable,
  removeDir,
  root,
  round,
  scratchDatabase,
  serverBundle,
  sleep,
  spawnProcess,
  startServer,
  freePort,
  tempDir,
  waitFor200,
} from "./lib/harness.mjs";
import { makeSeed, seedConversations, withPglite, withPostgres } from "./lib/seed.mjs";

export const description =
  "1,000 websockets in 500 conversations at 300/600/1,000 messages/s, product vs durable floor: delivery latency, loss, CPU";

const TARGET_P99_MS = 50;
/** At 300/s the product's p99 should be within this factor of the floor's. */
const TARGET_FLOOR_FACTOR = 2;
const floorFixture = path.join(root, "bench/fixtures/durable-floor.mjs");

function rateList(text) {
  return text
    .split(",")
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isFinite(n) && n > 0);
}

function settings(options = {}) {
  const env = (name, fallback) => Number(process.env[name] ?? fallback);
  const rates =
    options.rates ??
    rateList(process.env.BENCH_REALTIME_RATES ?? process.env.BENCH_REALTIME_RATE ?? "300,600,1000");
  return {
    conversations: options.conversations ?? env("BENCH_REALTIME_CONVERSATIONS", 500),
    rates,
    pgliteRates:
      options.pgliteRates ??
      rateList(process.env.BENCH_REALTIME_PGLITE_RATES ?? String(Math.min(...rates))),
    durationS: options.durationS ?? env("BENCH_REALTIME_DURATION", 60),
    warmupS: options.warmupS ?? env("BENCH_REALTIME_WARMUP", 10),
    backends:
      options.backends ??
      (process.env.BENCH_REALTIME_BACKENDS ?? "pglite,postgres").split(",").map((s) => s.trim()),
    floor: options.floor ?? process.env.BENCH_REALTIME_FLOOR !== "0",
    product: options.product ?? process.env.BENCH_REALTIME_PRODUCT !== "0",
    /** Earlier builds measured beside this one: [name, bundle], the name from its folder. */
    baselines: (options.baselineBundles ?? (process.env.BENCH_BASELINE_BUNDLE ?? "").split(","))
      .map((bundle) => bundle.trim())
      .filter(Boolean)
      .map((bundle, _i, all) => [
        all.length === 1 ? "baseline" : path.basename(path.dirname(bundle)),
        path.resolve(bundle),
      ]),
    drainMs: options.drainMs ?? 10_000,
    /** false: a control run with no websockets open (the API's own cost, no deliveries). */
    sockets: options.sockets ?? process.env.BENCH_REALTIME_SOCKETS !== "0",
    /**
     * Sockets per conversation, the owner's side and the client's (BENCH_REALTIME_FANOUT
     * "3,2": three staff and two contacts, as teams will have, taken here as tabs of the two
     * users, since every one of them gets every event).
     */
    layout: socketLayout(options.fanout ?? process.env.BENCH_REALTIME_FANOUT ?? "1,1"),
  };
}

/** Which conversation a socket index belongs to, and whether it is on the client's side. */
function socketLayout(text) {
  const [owner, client] = String(text)
    .split(",")
    .map((part) => Math.max(1, Number(part) || 1));
  const perConversation = owner + client;
  return {
    owner,
    client,
    perConversation,
    conversationOf: (socketIndex) => Math.floor(socketIndex / perConversation),
    isClient: (socketIndex) => socketIndex % perConversation >= owner,
    socketsOf: (conversationIndex) =>
      Array.from({ length: perConversation }, (_, k) => conversationIndex * perConversation + k),
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
    sockets: config.sockets ? config.conversations * config.layout.perConversation : 0,
    socketsPerConversation: { owner: config.layout.owner, client: config.layout.client },
    rates: config.rates,
    durationS: config.durationS,
    warmupS: config.warmupS,
    targetP99Ms: TARGET_P99_MS,
    targetFloorFactor: TARGET_FLOOR_FACTOR,
    /** One entry per backend, target (product or floor) and rate. */
    runs: [],
  };

  if (config.backends.includes("pglite")) {
    log("PGlite: seeding and starting");
    result.runs.push(...(await pgliteScenario(config, log)));
  }
  if (config.backends.includes("postgres")) {
    const pg = await postgresAvailable();
    if (!pg.available) {
      result.postgresSkipped = pg.reason;
    } else {
      log("PostgreSQL: seeding and starting");
      result.runs.push(...(await postgresScenario(config, log)));
    }
  }
  result.verdict = verdict(result);
  if (options.print ?? !options.log) for (const line of summarize(result)) console.log(line);
  return result;
}

function find(result, backend, target, rate) {
  return result.runs.find((r) => r.backend === backend && r.target === target && r.rate === rate);
}

function clean(r) {
  return r.lost === 0 && r.duplicates === 0 && r.misdelivered === 0 && r.errors.total === 0;
}

/** The two targets, where this run measured them (null where it did not). */
function verdict(result) {
  const at1000 = find(result, "postgres", "product", 1000);
  const product300 = find(result, "postgres", "product", 300);
  const floor300 = find(result, "postgres", "floor", 300);
  const ratio =
    product300?.latencyMs?.p99 && floor300?.latencyMs?.p99
      ? round(product300.latencyMs.p99 / floor300.latencyMs.p99, 2)
      : null;
  return {
    at1000: at1000?.latencyMs
      ? at1000.latencyMs.p99 <= TARGET_P99_MS && clean(at1000) && result.durationS >= 60
      : null,
    p99RatioToFloorAt300: ratio,
    within2xOfFloorAt300: ratio === null ? null : ratio <= TARGET_FLOOR_FACTOR,
  };
}

export function summarize(result) {
  const lines = [
    `${result.sockets} websockets in ${result.conversations} conversations (${result.socketsPerConversation.owner} on the owner's side, ${result.socketsPerConversation.client} on the client's: each message delivered ${result.socketsPerConversation.owner + result.socketsPerConversation.client} times), ${result.durationS} s per rate (after ${result.warmupS} s warm-up)`,
  ];
  if (result.postgresSkipped) lines.push(`PostgreSQL SKIPPED: ${result.postgresSkipped}`);
  for (const r of result.runs) {
    const label = `${r.backend === "postgres" ? "PostgreSQL" : "PGlite"} ${r.target} ${r.rate}/s`;
    if (!r.latencyMs) {
      lines.push(
        `${label.padEnd(26)} control run, no websockets: POST p50 ${r.postLatencyMs.p50} ms p99 ${r.postLatencyMs.p99} ms | ` +
          `errors ${r.errors.total} | ${r.achievedRatePerS} msg/s sent, server CPU ${r.server.cpuPercent}%`,
      );
      continue;
    }
    lines.push(
      `${label.padEnd(26)} delivery p50 ${r.latencyMs.p50} ms  p99 ${r.latencyMs.p99} ms  p99.9 ${r.latencyMs.p999} ms  max ${r.latencyMs.max} ms | ` +
        (r.visibleMs?.count
          ? `send-to-visible p50 ${r.visibleMs.p50} p99 ${r.visibleMs.p99} ms (${r.visibleMs.count}) | `
          : "") +
        `lost ${r.lost}  dup ${r.duplicates}  misdelivered ${r.misdelivered}  errors ${r.errors.total} | ` +
        `POST p50 ${r.postLatencyMs.p50} p99 ${r.postLatencyMs.p99} ms | ${r.achievedRatePerS} msg/s, ` +
        `server CPU ${r.server.cpuPercent}% (${r.server.cpuUsPerMessage} µs/msg), database ${r.database?.cpuUsPerMessage ?? "-"} µs/msg, machine ${r.machineCpuPercent}%, RSS ${r.server.maxSampledRssMb} MB`,
    );
    const series = (seconds) => seconds.map(([, p99, p999]) => `${p99}/${p999}`).join(" ");
    lines.push(
      `${"".padEnd(26)} p99/p99.9 per second (ms), warm-up: ${series(r.warmupBySecondMs ?? [])}`,
      `${"".padEnd(26)} p99/p99.9 per second (ms), measured: ${series(r.bySecondMs)}`,
      `${"".padEnd(26)} load generator lag p99 ${r.loadGeneratorLagMs.p99} ms; load ${r.loadAverage}`,
    );
  }
  const v = result.verdict ?? {};
  const yes = (value) =>
    value === null || value === undefined ? "not measured" : value ? "met" : "MISSED";
  lines.push(
    `targets: 1,000/s for 60 s, p99 <= ${result.targetP99Ms} ms, none lost or duplicated: ${yes(v.at1000)}; ` +
      `300/s p99 within ${result.targetFloorFactor}x of the floor: ${yes(v.within2xOfFloorAt300)}` +
      (v.p99RatioToFloorAt300 !== null ? ` (${v.p99RatioToFloorAt300}x)` : ""),
  );
  return lines;
}

// ---------------------------------------------------------------------------------------------

/** A server under test with its websockets open: the product or the floor. */
function productTarget(server, seeded, layout, backend, name = "product") {
  const base = `http://127.0.0.1:${server.port}`;
  return {
    name,
    backend,
    pid: server.child.pid,
    base,
    tracker: new Tracker(layout, (socketIndex) =>
      fetchNewestIds(
        base,
        server.url,
        seeded[layout.conversationOf(socketIndex)],
        layout.isClient(socketIndex),
      ),
    ),
    sockets: [],
    socket(conversation, isClient) {
      return {
        url: `${base.replace(/^http/, "ws")}/ws`,
        headers: {
          cookie: `sid=${isClient ? conversation.clientToken : conversation.ownerToken}`,
        },
        origin: server.url,
      };
    },
    post(conversation, fromClient) {
      return {
        url: `${base}/api/clients/${conversation.clientId}/messages`,
        headers: {
          cookie: `sid=${fromClient ? conversation.clientToken : conversation.ownerToken}`,
          origin: server.url,
        },
      };
    },
  };
}

function floorTarget(floor, layout) {
  const base = `http://127.0.0.1:${floor.port}`;
  return {
    name: "floor",
    backend: "postgres",
    pid: floor.child.pid,
    base,
    tracker: new Tracker(layout),
    sockets: [],
    socket(conversation) {
      return {
        url: `${base.replace(/^http/, "ws")}/ws?client=${conversation.clientId}`,
        headers: {},
      };
    },
    post(conversation, fromClient) {
      return {
        url: `${base}/api/clients/${conversation.clientId}/messages`,
        headers: { "x-sender": fromClient ? "client" : "owner" },
      };
    },
  };
}

async function startFloor(databaseUrl, dir) {
  const port = await freePort();
  const handle = spawnProcess([floorFixture], {
    env: { PORT: String(port), DATABASE_URL: databaseUrl },
    logFile: path.join(dir, "durable-floor.log"),
  });
  try {
    await waitFor200(`http://127.0.0.1:${port}/healthz`, handle);
  } catch (error) {
    await handle.stop();
    throw error;
  }
  return { ...handle, port };
}

async function pgliteScenario(config, log) {
  const dataDir = tempDir("realtime-pglite");
  let server = await startServer({ dataDir, label: "realtime-pglite" });
  let target;
  try {
    const seeded = makeSeed(config.conversations);
    // The server migrated the database; stop it to write into the embedded database.
    await server.stop();
    await withPglite(path.join(dataDir, "pglite"), (query) => seedConversations(query, seeded));
    server = await startServer({ dataDir, label: "realtime-pglite" });
    target = productTarget(server, seeded, config.layout, "pglite");
    await openSockets(target, seeded, config, log);
    const runs = [];
    for (const rate of config.pgliteRates)
      runs.push(await measure(target, seeded, rate, config, log));
    return runs;
  } finally {
    closeSockets(target);
    await server.stop();
    removeDir(dataDir);
  }
}

async function postgresScenario(config, log) {
  const dataDir = tempDir("realtime-postgres");
  const productDb = config.product ? await scratchDatabase() : null;
  const baselineDbs = [];
  for (let i = 0; i < config.baselines.length; i++) baselineDbs.push(await scratchDatabase());
  const floorDb = config.floor ? await scratchDatabase() : null;
  const servers = [];
  let floor;
  const targets = [];
  try {
    const seeded = makeSeed(config.conversations);
    for (const [name, database, bundle] of [
      ["product", productDb, undefined],
      ...config.baselines.map(([baseline, file], i) => [baseline, baselineDbs[i], file]),
    ]) {
      if (!database) continue;
      const server = await startServer({
        dataDir: path.join(dataDir, name),
        databaseUrl: database.url,
        label: `realtime-${name}`,
        bundle,
      });
      servers.push(server);
      await withPostgres(database.url, (query) => seedConversations(query, seeded));
      targets.push({
        ...productTarget(server, seeded, config.layout, "postgres", name),
        database: database.name,
      });
    }
    if (floorDb) {
      floor = await startFloor(floorDb.url, dataDir);
      targets.push({ ...floorTarget(floor, config.layout), database: floorDb.name });
    }
    for (const target of targets) await openSockets(target, seeded, config, log);
    const runs = [];
    for (const [i, rate] of config.rates.entries()) {
      // Alternate the order, so no target always follows another's aftermath.
      const order = i % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order) runs.push(await measure(target, seeded, rate, config, log));
    }
    return runs;
  } finally {
    for (const target of targets) closeSockets(target);
    for (const server of servers) await server.stop();
    await floor?.stop();
    for (const database of [productDb, ...baselineDbs, floorDb]) await database?.drop();
    removeDir(dataDir);
  }
}

async function openSockets(target, seeded, config, log) {
  const { layout } = config;
  const count = config.sockets ? seeded.length * layout.perConversation : 0;
  const started = performance.now();
  await inBatches(count, 50, async (index) => {
    const conversation = seeded[layout.conversationOf(index)];
    target.sockets[index] = await openSocket(
      target.socket(conversation, layout.isClient(index)),
      index,
      target.tracker,
    );
  });
  target.socketsOpenMs = Math.round(performance.now() - started);
  log(`${target.backend} ${target.name}: ${count} websockets open in ${target.socketsOpenMs} ms`);
}

function closeSockets(target) {
  if (!target) return;
  target.tracker.stopping = true;
  for (const socket of target.sockets) socket?.terminate();
}

/** One rate on one target: warm-up, then the measured seconds, then the deliveries drained. */
async function measure(target, seeded, rate, config, log) {
  const { tracker, pid } = target;
  const memory = new MemorySampler(pid);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const label = `${target.backend} ${target.name} ${rate}/s`;
  const load = { rate, seeded, target, agent, tracker };
  if (config.warmupS > 0) {
    log(`${label}: warm-up ${config.warmupS} s`);
    await postAtRate({ ...load, seconds: config.warmupS, phase: `warmup@${rate}` });
  }
  log(`${label}: measuring ${config.durationS} s`);
  const phase = `measured@${rate}`;
  const cpuBefore = cpuTicks(pid);
  const machineBefore = machineTicks();
  const databaseBefore = await databaseTicks(target.database);
  // The load generator shares the machine: if its own event loop lags, latencies look worse.
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const measureStarted = performance.now();
  const sent = await postAtRate({ ...load, seconds: config.durationS, phase });
  const sendSeconds = (performance.now() - measureStarted) / 1000;
  const cpuAfter = cpuTicks(pid);
  const machineAfter = machineTicks();
  const databaseAfter = await databaseTicks(target.database);
  lag.disable();
  if (config.sockets) await tracker.drain(config.drainMs);
  memory.stop();
  agent.destroy();

  const analysis = tracker.analyse(phase);
  // The warm-up's first seconds are everyone's first message: a cold start shows there.
  const warmupBySecondMs =
    config.warmupS > 0 && config.sockets ? tracker.analyse(`warmup@${rate}`).bySecondMs : [];
  if (!config.sockets) {
    // Control run: nothing was listening, so there is no delivery to measure.
    Object.assign(analysis, {
      lost: null,
      delivered: null,
      latencyMs: null,
      senderEchoLatencyMs: null,
    });
    analysis.bySecondMs = [];
  }
  const clockTicks = 100; // USER_HZ on Linux
  let databaseCpuSeconds = null;
  if (databaseBefore && databaseAfter) {
    let ticks = 0;
    for (const [backend, after] of databaseAfter)
      ticks += after - (databaseBefore.get(backend) ?? 0);
    databaseCpuSeconds = ticks / clockTicks;
  }
  const cpuSeconds =
    cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore) / clockTicks : null;
  const result = {
    backend: target.backend,
    target: target.name,
    rate,
    ...analysis,
    warmupBySecondMs,
    posted: sent,
    achievedRatePerS: round(sent / sendSeconds),
    socketsOpenMs: target.socketsOpenMs,
    socketsOpen: target.sockets.filter((socket) => socket?.readyState === WebSocket.OPEN).length,
    loadGeneratorLagMs: { p99: round(lag.percentile(99) / 1e6), max: round(lag.max / 1e6) },
    loadAverage: round(readLoadAverage(), 2),
    machineCpuPercent:
      machineBefore && machineAfter
        ? round(
            ((machineAfter.busy - machineBefore.busy) /
              (machineAfter.total - machineBefore.total)) *
              100,
          )
        : null,
    server: {
      peakRssMb: memory.peakHwmMb(),
      maxSampledRssMb: memory.maxRssMb,
      cpuPercent: cpuSeconds === null ? null : round((cpuSeconds / sendSeconds) * 100),
      cpuUsPerMessage: cpuSeconds === null ? null : Math.round((cpuSeconds / sent) * 1e6),
    },
    /** The PostgreSQL backends serving this target's database (its pool and LISTEN connection). */
    database:
      databaseCpuSeconds === null
        ? null
        : {
            cpuPercent: round((databaseCpuSeconds / sendSeconds) * 100),
            cpuUsPerMessage: Math.round((databaseCpuSeconds / sent) * 1e6),
          },
  };
  log(
    `${label}: p50 ${result.latencyMs?.p50} ms, p99 ${result.latencyMs?.p99} ms, lost ${result.lost}, ` +
      `duplicates ${result.duplicates}, errors ${result.errors.total}, server CPU ${result.server.cpuPercent}% ` +
      `(${result.server.cpuUsPerMessage} µs/msg), database ${result.database?.cpuUsPerMessage ?? "-"} µs/msg, machine ${result.machineCpuPercent}%`,
  );
  return result;
}

// --- load -----------------------------------------------------------------------------------

function openSocket({ url, headers, origin }, index, tracker) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { origin, headers, handshakeTimeout: 10_000 });
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
async function postAtRate({ rate, seconds, seeded, target, agent, tracker, phase }) {
  const total = Math.round(seconds * rate);
  const offset = tracker.messagesPosted;
  const started = performance.now();
  const inFlight = new Set();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
    while (sent < due) {
      const seq = offset + sent;
      const conversationIndex = seq % seeded.length;
      const conversation = seeded[conversationIndex];
      // Senders alternate: each conversation's owner, then its client, and so on.
      const fromClient = (Math.floor(seq / seeded.length) + conversationIndex) % 2 === 1;
      const promise = postMessage({
        agent,
        request: target.post(conversation, fromClient),
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
  tracker.messagesPosted += sent;
  await Promise.all(inFlight);
  return sent;
}

function postMessage({
  agent,
  request: target,
  fromClient,
  seq,
  tracker,
  phase,
  conversationIndex,
}) {
  const body = JSON.stringify({ content: `bench message ${seq}` });
  return new Promise((resolve) => {
    const sentAt = performance.now();
    const request = http.request(
      target.url,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          ...target.headers,
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
/**
 * The ids of a conversation's newest page as the recipient's page would fetch them after an
 * event without the message (GET /api/clients/{id}/messages with its session).
 */
const fetchAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });
function fetchNewestIds(base, origin, conversation, isClient) {
  const token = isClient ? conversation.clientToken : conversation.ownerToken;
  return new Promise((resolve) => {
    const request = http.get(
      `${base}/api/clients/${conversation.clientId}/messages`,
      { agent: fetchAgent, headers: { cookie: `sid=${token}`, origin }, timeout: 30_000 },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString()).map((message) => message.id));
          } catch {
            resolve([]);
          }
        });
      },
    );
    request.on("error", () => resolve([]));
    request.on("timeout", () => request.destroy());
  });
}

/** One recipient delivery in this many is fetched, when its event lacks the message. */
const VISIBLE_SAMPLE = 8;

class Tracker {
  /**
   * `fetchIds(socketIndex)`: the page's fetch after an event without the message (none for the
   * floor, whose send-to-event is the reference).
   */
  constructor(layout, fetchIds = null) {
    this.layout = layout;
    this.fetchIds = fetchIds;
    /** `${socket}:${messageId}` -> when the text was usable on that socket's side. */
    this.visible = new Map();
    this.visibleSampled = 0;
    this.fetching = new Set();
    this.messages = new Map(); // messageId -> { sentAt, answeredAt, conversationIndex, fromClient, phase }
    this.arrivals = []; // [socketIndex, messageId, at, type]
    this.errors = { http: 0, socket: 0, unexpectedClose: 0, samples: [] };
    this.errorsByPhase = {};
    this.messagesPosted = 0;
    this.received = new Set(); // `${socket}:${messageId}` of expected deliveries seen
    this.expected = 0;
    this.waiting = null;
  }

  sent(messageId, info) {
    this.messages.set(messageId, info);
    this.expected += this.layout.perConversation;
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
    if (event.type === "new_message") {
      const key = `${socketIndex}:${event.messageId}`;
      this.received.add(key);
      if (typeof event.message?.content === "string") this.visible.set(key, at);
      else if (this.fetchIds && this.visibleSampled++ % VISIBLE_SAMPLE === 0) {
        const fetched = this.fetchIds(socketIndex).then((ids) => {
          if (ids.includes(event.messageId)) this.visible.set(key, performance.now());
          this.fetching.delete(fetched);
        });
        this.fetching.add(fetched);
      }
    }
    this.checkDone();
  }

  httpError(phase, message) {
    this.errors.http += 1;
    this.errorsByPhase[phase] = (this.errorsByPhase[phase] ?? 0) + 1;
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
    this.waiting = null;
    // Let late duplicates show up, and the sampled fetches answer.
    await sleep(300);
    await Promise.race([Promise.allSettled([...this.fetching]), sleep(timeoutMs)]);
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
      if (this.layout.conversationOf(socketIndex) !== message.conversationIndex) {
        misdelivered += 1;
        continue;
      }
      const key = `${socketIndex}:${messageId}`;
      if (first.has(key)) duplicates += 1;
      else first.set(key, at);
    }
    const toRecipient = [];
    const toSender = [];
    const visible = [];
    const windows = new Map(); // second of the send -> recipient latencies
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
      for (const socketIndex of this.layout.socketsOf(message.conversationIndex)) {
        expected += 1;
        const isClientSocket = this.layout.isClient(socketIndex);
        const at = first.get(`${socketIndex}:${messageId}`);
        if (at === undefined) {
          lost += 1;
          continue;
        }
        const isSender = Boolean(isClientSocket) === message.fromClient;
        (isSender ? toSender : toRecipient).push(at - message.sentAt);
        const usable = this.visible.get(`${socketIndex}:${messageId}`);
        if (!isSender && usable !== undefined) visible.push(usable - message.sentAt);
        if (!isSender) {
          const window = Math.floor((message.sentAt - firstSend) / 1_000);
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
      /**
       * Send to the text usable on the other side: the event itself when it carries the
       * message, else the event and then the page's fetch (sampled, one delivery in 8).
       */
      visibleMs: percentiles(visible),
      /**
       * [p50, p99, p99.9] of each second of sending: shows whether the tail is steady or comes
       * in bursts (a cold start, a timer).
       */
      bySecondMs: [...windows.keys()]
        .sort((a, b) => a - b)
        .map((w) => {
          const { p50, p99, p999 } = percentiles(windows.get(w));
          return [p50, p99, p999];
        }),
      senderEchoLatencyMs: percentiles(toSender),
      postLatencyMs: percentiles(post),
      errors: {
        total: (this.errorsByPhase[phase] ?? 0) + this.errors.socket + this.errors.unexpectedClose,
        http: this.errorsByPhase[phase] ?? 0,
        httpWarmup: this.errorsByPhase[phase.replace("measured", "warmup")] ?? 0,
        socket: this.errors.socket,
        unexpectedClose: this.errors.unexpectedClose,
        samples: this.errors.samples,
      },
    };
  }
}

function percentiles(values) {
  if (values.length === 0)
    return { count: 0, p50: null, p90: null, p99: null, p999: null, max: null };
  const sorted = Float64Array.from(values).sort();
  const at = (q) => round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);
  return {
    count: sorted.length,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    p999: at(0.999),
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

/**
 * CPU ticks of each PostgreSQL backend connected to `database` (pid -> utime + stime), when the
 * server runs on this machine; null otherwise.
 */
async function databaseTicks(database) {
  if (!database) return null;
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  try {
    await client.connect();
    const { rows } = await client.query("select pid from pg_stat_activity where datname = $1", [
      database,
    ]);
    const ticks = new Map();
    for (const { pid } of rows) {
      const value = cpuTicks(pid);
      if (value !== null) ticks.set(pid, value);
    }
    return ticks.size > 0 ? ticks : null;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Busy and total jiffies of the whole machine (/proc/stat), or null. */
function machineTicks() {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0];
    const values = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = values[3] + (values[4] ?? 0);
    const total = values.reduce((sum, value) => sum + value, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

function readLoadAverage() {
  try {
    return Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
  } catch {
    return 0;
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
