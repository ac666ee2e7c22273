// Memory per idle websocket, on PostgreSQL: SOCKETS sockets (an owner and a client per
// conversation, each with its own session) opened against the production bundle and, in the same
// run, against the durable floor (bench/fixtures/durable-floor.mjs: bare Node + ws). Per server:
// resident memory (VmRSS) before the first socket and once all are open and idle (median of
// five samples, 1 s apart, after 3 s of quiet), the growth divided by the sockets; and VmHWM.
// Target (issue 11): at most 50 KB per idle socket with 10,000 open.
//
// Environment: BENCH_IDLE_SOCKETS (default 10000), BENCH_BASELINE_BUNDLE (the
// dist/server/index.mjs of an earlier build, in a folder of the checkout: measured the same way
// after the product, for before/after in one run), BENCH_DATABASE_URL (see lib/harness.mjs),
// BENCH_IDLE_HEAPSNAPSHOT=<dir> (a heap snapshot of each server before its sockets open and once
// they idle, written to <dir>, with what grew per socket printed by lib/heap-diff.mjs; the
// snapshots themselves move RSS, so take the KB per socket from a run without them).
import { mkdirSync, readdirSync, renameSync } from "node:fs";
import path from "node:path";
import WebSocket from "ws";
import {
  freePort,
  postgresAvailable,
  removeDir,
  root,
  round,
  scratchDatabase,
  sleep,
  spawnProcess,
  startServer,
  tempDir,
  waitFor200,
} from "./lib/harness.mjs";
import { heapDiff, heapSummary } from "./lib/heap-diff.mjs";
import { statusKb } from "./lib/process-memory.mjs";
import { makeSeed, seedConversations, withPostgres } from "./lib/seed.mjs";

export const description = "memory per idle websocket with 10,000 open (product and bare ws floor)";

/** Issue 25: 15 KB an idle socket with 10,000 open (issue 11 asked for 50). */
const TARGET_KB = 15;
const floorFixture = path.join(root, "bench/fixtures/durable-floor.mjs");

export async function run(options = {}) {
  const log = options.log ?? console.log;
  const sockets = options.sockets ?? Number(process.env.BENCH_IDLE_SOCKETS ?? 10_000);
  const result = { sockets, targetKbPerSocket: TARGET_KB };
  const pg = await postgresAvailable();
  if (!pg.available) return { ...result, skipped: pg.reason };

  if (SNAPSHOT_DIR) {
    mkdirSync(SNAPSHOT_DIR, { recursive: true });
    // The servers started from here (lib/harness.mjs reads it) write a snapshot on SIGUSR2.
    process.env.BENCH_SERVER_NODE_ARGS = `${process.env.BENCH_SERVER_NODE_ARGS ?? ""} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${path.resolve(SNAPSHOT_DIR)}`;
  }
  const dataDir = tempDir("realtime-idle");
  const productDb = await scratchDatabase();
  const floorDb = await scratchDatabase();
  const seeded = makeSeed(Math.ceil(sockets / 2));
  let server;
  let floor;
  const baselineBundle = options.baselineBundle ?? process.env.BENCH_BASELINE_BUNDLE;
  try {
    server = await startServer({ dataDir, databaseUrl: productDb.url, label: "realtime-idle" });
    await withPostgres(productDb.url, (query) => seedConversations(query, seeded));
    if (baselineBundle) {
      // The same seed in a database of its own, for the earlier build alone.
      const baselineDb = await scratchDatabase();
      const baseline = await startServer({
        dataDir: tempDir("realtime-idle-baseline"),
        databaseUrl: baselineDb.url,
        label: "realtime-idle-baseline",
        bundle: path.resolve(baselineBundle),
      });
      try {
        await withPostgres(baselineDb.url, (query) => seedConversations(query, seeded));
        result.baseline = await measure({
          log,
          label: "baseline",
          pid: baseline.child.pid,
          url: baseline.url,
          count: sockets,
          open: (index) => openSignedIn(baseline, seeded, index),
        });
      } finally {
        await baseline.stop();
        await baselineDb.drop();
      }
    }
    const port = await freePort();
    floor = spawnProcess([floorFixture], {
      env: { PORT: String(port), DATABASE_URL: floorDb.url },
      logFile: path.join(dataDir, "durable-floor.log"),
    });
    await waitFor200(`http://127.0.0.1:${port}/healthz`, floor);

    const wsBase = (p) => `ws://127.0.0.1:${p}/ws`;
    result.product = await measure({
      log,
      label: "product",
      pid: server.child.pid,
      url: server.url,
      count: sockets,
      open: (index) => openSignedIn(server, seeded, index),
    });
    result.floor = await measure({
      log,
      label: "floor",
      pid: floor.child.pid,
      count: sockets,
      open: (index) => openSocket(`${wsBase(port)}?client=${seeded[index >> 1].clientId}`, {}),
    });
    result.meetsTarget = result.product.kbPerSocket <= TARGET_KB;
  } finally {
    await server?.stop();
    await floor?.stop();
    await productDb.drop();
    await floorDb.drop();
    removeDir(dataDir);
  }
  if (options.print ?? !options.log) for (const line of summarize(result)) console.log(line);
  return result;
}

/** Socket `index` of a bench server: even the conversation's owner, odd its client. */
function openSignedIn(server, seeded, index) {
  const conversation = seeded[index >> 1];
  return openSocket(`ws://127.0.0.1:${server.port}/ws`, {
    origin: server.url,
    headers: { cookie: `sid=${index & 1 ? conversation.clientToken : conversation.ownerToken}` },
  });
}

export function summarize(result) {
  if (result.skipped) return [`SKIPPED: ${result.skipped}`];
  const line = (label, r) =>
    `${label.padEnd(8)} ${r.opened} sockets open in ${r.openMs} ms: RSS ${r.beforeMb} -> ${r.afterMb} MB, ` +
    `${r.kbPerSocket} KB per idle socket (peak RSS ${r.peakMb} MB)`;
  return [
    line("product", result.product),
    ...(result.baseline ? [line("baseline", result.baseline)] : []),
    line("floor", result.floor),
    `target <= ${result.targetKbPerSocket} KB per idle socket: ${result.meetsTarget ? "met" : "MISSED"}`,
  ];
}

async function measure({ log, label, pid, url, count, open }) {
  await sleep(1_000);
  const snapshotBefore = await heapSnapshot(pid, url, label, "before");
  const beforeKb = await settledRssKb(pid, 3);
  const sockets = [];
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < count) {
        const index = next++;
        sockets[index] = await open(index);
      }
    }),
  );
  const openMs = Math.round(performance.now() - started);
  log(`${label}: ${count} websockets open in ${openMs} ms; letting them idle`);
  await sleep(3_000);
  const afterKb = await settledRssKb(pid, 5);
  const opened = sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;
  const peakKb = statusKb(pid, "VmHWM");
  const snapshotAfter = await heapSnapshot(pid, url, label, "after");
  if (snapshotBefore && snapshotAfter)
    printHeapGrowth(log, label, snapshotBefore, snapshotAfter, opened);
  for (const ws of sockets) ws.terminate();
  const result = {
    opened,
    openMs,
    beforeMb: round(beforeKb / 1024),
    afterMb: round(afterKb / 1024),
    peakMb: peakKb === null ? null : round(peakKb / 1024),
    kbPerSocket: round((afterKb - beforeKb) / opened, 1),
  };
  log(
    `${label}: ${result.kbPerSocket} KB per idle socket (RSS ${result.beforeMb} -> ${result.afterMb} MB)`,
  );
  // Let the server forget them before the next measure.
  await sleep(2_000);
  return result;
}

const SNAPSHOT_DIR = process.env.BENCH_IDLE_HEAPSNAPSHOT;

/**
 * With BENCH_IDLE_HEAPSNAPSHOT, asks the server for a heap snapshot (it runs with
 * --heapsnapshot-signal=SIGUSR2, written to its --diagnostic-dir) and resolves with its file once
 * written; else null. The floor, a bare fixture, takes none.
 */
async function heapSnapshot(pid, url, label, moment) {
  if (!SNAPSHOT_DIR || label === "floor") return null;
  const known = new Set(readdirSync(SNAPSHOT_DIR));
  process.kill(pid, "SIGUSR2");
  for (let waited = 0; waited < 120_000; waited += 500) {
    await sleep(500);
    const written = readdirSync(SNAPSHOT_DIR).find(
      (name) => name.endsWith(".heapsnapshot") && !known.has(name),
    );
    if (!written) continue;
    const file = path.join(SNAPSHOT_DIR, written);
    // The server writes it on its main thread: once it answers again, the file is complete.
    await fetch(`${url}/healthz`);
    const named = path.join(SNAPSHOT_DIR, `${label}-${moment}.heapsnapshot`);
    renameSync(file, named);
    return named;
  }
  throw new Error(`no heap snapshot from ${label} after 120 s`);
}

function printHeapGrowth(log, label, before, after, sockets) {
  const diff = heapDiff(heapSummary(before), heapSummary(after));
  const kb = (bytes) => (bytes / 1024 / sockets).toFixed(2);
  log(`${label}: JS heap grew ${kb(diff.totalBytes)} KB per socket; the most:`);
  for (const row of diff.rows.slice(0, 15)) {
    log(
      `  ${kb(row.bytes).padStart(7)} KB  ${(row.count / sockets).toFixed(2).padStart(6)}x  ${row.kind}`,
    );
  }
}

/** The median of `samples` VmRSS readings one second apart, in KB. */
async function settledRssKb(pid, samples) {
  const values = [];
  for (let i = 0; i < samples; i++) {
    if (i > 0) await sleep(1_000);
    values.push(statusKb(pid, "VmRSS"));
  }
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)];
}

function openSocket(url, { origin, headers }) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { origin, headers, handshakeTimeout: 30_000 });
    ws.once("open", () => resolve(ws));
    ws.once("unexpected-response", (_req, res) => {
      ws.terminate();
      reject(new Error(`websocket refused: ${res.statusCode}`));
    });
    ws.once("error", reject);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
