// Throughput of GET /api/user with a valid session (session lookup, user load, presenter) on
// the production bundle, against a bare Koa hello-world measured in the same run. autocannon:
// CONNECTIONS connections, WARMUP s of warm-up, then DURATION s measured. Target: ratio >= 0.5.
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
  tempDir,
  waitFor200,
} from "./lib/harness.mjs";

export const description = "GET /api/user (signed in) requests/s vs a bare Koa hello-world";

const CONNECTIONS = 10;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
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
    requests: r.requests.total,
  };
}

async function koaBaseline() {
  const port = await freePort();
  const dir = tempDir("koa");
  const handle = spawnProcess([path.join(root, "bench/fixtures/koa-hello.mjs")], {
    env: { PORT: String(port) },
    logFile: path.join(dir, "koa.log"),
  });
  try {
    await waitFor200(`http://127.0.0.1:${port}/`, handle);
    return await cannon(`http://127.0.0.1:${port}/`);
  } finally {
    await handle.stop();
    removeDir(dir);
  }
}

async function userEndpoint(databaseUrl) {
  const server = await startServer({ label: "throughput", databaseUrl });
  try {
    const { cookie } = await signUp(server);
    const url = `http://127.0.0.1:${server.port}/api/user`;
    const check = await fetch(url, { headers: { cookie } });
    if (check.status !== 200)
      throw new Error(`GET /api/user: ${check.status} ${await check.text()}`);
    await check.arrayBuffer();
    return await cannon(url, { cookie });
  } finally {
    await server.stop();
    removeDir(server.dataDir);
  }
}

export async function run({ log = console.log } = {}) {
  log(`koa hello-world: ${WARMUP} s warm-up + ${DURATION} s`);
  const koa = await koaBaseline();
  log(`koa hello-world: ${koa.requestsPerSecond} req/s`);
  const result = { connections: CONNECTIONS, durationS: DURATION, warmupS: WARMUP, koa };

  log("GET /api/user on PGlite");
  const pglite = await userEndpoint(undefined);
  result.pglite = { ...pglite, ratio: round(pglite.requestsPerSecond / koa.requestsPerSecond, 3) };
  log(`GET /api/user on PGlite: ${pglite.requestsPerSecond} req/s`);

  const pg = await postgresAvailable();
  if (pg.available) {
    log("GET /api/user on PostgreSQL");
    const database = await scratchDatabase();
    try {
      const postgres = await userEndpoint(database.url);
      result.postgres = {
        ...postgres,
        ratio: round(postgres.requestsPerSecond / koa.requestsPerSecond, 3),
      };
      log(`GET /api/user on PostgreSQL: ${postgres.requestsPerSecond} req/s`);
    } finally {
      await database.drop();
    }
  } else {
    result.postgres = { skipped: pg.reason };
  }
  result.targetRatio = TARGET_RATIO;
  result.meetsTarget = [result.pglite, result.postgres]
    .filter((r) => !r.skipped)
    .every((r) => r.ratio >= TARGET_RATIO);
  return result;
}

export function summarize(result) {
  const line = (label, r) =>
    `${label.padEnd(24)} ${String(r.requestsPerSecond).padStart(8)} req/s  p50 ${r.latencyMs.p50} ms  p99 ${r.latencyMs.p99} ms`;
  const lines = [line("koa hello-world", result.koa)];
  for (const [label, key] of [
    ["/api/user on PGlite", "pglite"],
    ["/api/user on PostgreSQL", "postgres"],
  ]) {
    const r = result[key];
    if (r.skipped) {
      lines.push(`${label.padEnd(24)} SKIPPED: ${r.skipped}`);
      continue;
    }
    const verdict = r.ratio >= result.targetRatio ? "ok" : "BELOW TARGET";
    lines.push(`${line(label, r)}  ratio ${r.ratio} (target >= ${result.targetRatio}: ${verdict})`);
  }
  return lines;
}
