// Throughput of GET /api/user with a valid session (session lookup, user load, presenter) on
// the production bundle, against a bare Koa hello-world on the same machine. autocannon:
// CONNECTIONS connections, WARMUP s of warm-up, then DURATION s measured. ROUNDS rounds, each
// measuring the hello-world and each backend in turn (every other round in reverse order), so
// that all three see the same state of the (shared, noisy) machine; the ratio reported is the median of the per-round
// ratios. Target: ratio >= 0.5.
import path from "node:path";
import {
  freePort,
  postgresAvailable,
  removeDir,
  root,
  round,
  scratchDatabase,
  signUp,
  spawnProcess,
  startServer,
  stats,
  tempDir,
  waitFor200,
} from "./lib/harness.mjs";

export const description = "GET /api/user (signed in) requests/s vs a bare Koa hello-world";

const CONNECTIONS = 10;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const ROUNDS = Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 3);
const TARGET_RATIO = 0.5;

async function cannon(url, headers = {}) {
  const { default: autocannon } = await import("autocannon");
  const options = { url, connections: CONNECTIONS, headers };
  await autocannon({ ...options, duration: WARMUP });
  const r = await autocannon({ ...options, duration: DURATION });
  const failed = r.non2xx + r.errors + r.timeouts;
  if (failed > 0) {
    throw new Error(
      `${url}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts of ${r.requests.total}`,
    );
  }
  return {
    requestsPerSecond: round(r.requests.average),
    latencyMs: { p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max },
  };
}

/** The bare Koa hello-world, running until stop(). */
async function koaBaseline() {
  const port = await freePort();
  const dir = tempDir("koa");
  const handle = spawnProcess([path.join(root, "bench/fixtures/koa-hello.mjs")], {
    env: { PORT: String(port) },
    logFile: path.join(dir, "koa.log"),
  });
  await waitFor200(`http://127.0.0.1:${port}/`, handle);
  return {
    measure: () => cannon(`http://127.0.0.1:${port}/`),
    async stop() {
      await handle.stop();
      removeDir(dir);
    },
  };
}

/** Our server on one backend with a signed-up owner, running until stop(). */
async function userEndpoint(label, databaseUrl) {
  const server = await startServer({ label: `throughput-${label}`, databaseUrl });
  const { cookie } = await signUp(server);
  const url = `http://127.0.0.1:${server.port}/api/user`;
  const check = await fetch(url, { headers: { cookie } });
  if (check.status !== 200) throw new Error(`GET /api/user: ${check.status} ${await check.text()}`);
  await check.arrayBuffer();
  return {
    measure: () => cannon(url, { cookie }),
    async stop() {
      await server.stop();
      removeDir(server.dataDir);
    },
  };
}

function summaryOf(rounds, key) {
  const runs = rounds.map((r) => r[key]);
  return {
    requestsPerSecond: stats(runs.map((r) => r.requestsPerSecond)),
    ratio: stats(
      rounds.map((r) => r[key].requestsPerSecond / r.koa.requestsPerSecond),
      3,
    ),
    latencyMs: runs.at(-1).latencyMs,
  };
}

export async function run({ log = console.log } = {}) {
  const pg = await postgresAvailable();
  const database = pg.available ? await scratchDatabase() : null;
  const targets = { koa: await koaBaseline() };
  const rounds = [];
  try {
    targets.pglite = await userEndpoint("pglite", undefined);
    if (database) targets.postgres = await userEndpoint("postgres", database.url);
    for (let i = 1; i <= ROUNDS; i += 1) {
      const results = {};
      // Every other round in reverse order, so that no target always runs last.
      const order = Object.entries(targets);
      if (i % 2 === 0) order.reverse();
      for (const [key, target] of order) {
        results[key] = await target.measure();
        log(`round ${i}/${ROUNDS} ${key}: ${results[key].requestsPerSecond} req/s`);
      }
      rounds.push(results);
    }
  } finally {
    for (const target of Object.values(targets)) await target.stop();
    await database?.drop();
  }
  const result = {
    connections: CONNECTIONS,
    durationS: DURATION,
    warmupS: WARMUP,
    rounds,
    koa: { requestsPerSecond: stats(rounds.map((r) => r.koa.requestsPerSecond)) },
    pglite: summaryOf(rounds, "pglite"),
    postgres: database ? summaryOf(rounds, "postgres") : { skipped: pg.reason },
    targetRatio: TARGET_RATIO,
  };
  result.meetsTarget = [result.pglite, result.postgres]
    .filter((r) => !r.skipped)
    .every((r) => r.ratio.median >= TARGET_RATIO);
  return result;
}

export function summarize(result) {
  const rate = (s) =>
    `${String(Math.round(s.median)).padStart(6)} req/s (${Math.round(s.min)}-${Math.round(s.max)})`;
  const lines = [`${"koa hello-world".padEnd(24)} ${rate(result.koa.requestsPerSecond)}`];
  for (const [label, key] of [
    ["/api/user on PGlite", "pglite"],
    ["/api/user on PostgreSQL", "postgres"],
  ]) {
    const r = result[key];
    if (r.skipped) {
      lines.push(`${label.padEnd(24)} SKIPPED: ${r.skipped}`);
      continue;
    }
    const verdict = r.ratio.median >= result.targetRatio ? "ok" : "BELOW TARGET";
    lines.push(
      `${label.padEnd(24)} ${rate(r.requestsPerSecond)}  ratio median ${r.ratio.median} (${r.ratio.min}-${r.ratio.max}, ${result.rounds.length} rounds; target >= ${result.targetRatio}: ${verdict})`,
    );
  }
  return lines;
}
