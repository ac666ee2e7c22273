// What a change of the server costs per request: GET /api/user (session, user, presenter) and
// POST /api/clients/{id}/messages (body parsing, validation, a transaction, the realtime
// notice) on this checkout's production bundle against a baseline bundle built from an earlier
// commit (BENCH_BASELINE_BUNDLE, e.g. a `git worktree` of that commit after `npm run build`).
// Both run side by side on the same backend; ROUNDS rounds measure each endpoint on both in
// turn, every other round in reverse order, and report the median of the per-round ratios
// (current / baseline), so that the machine's drift hits both alike.
import { existsSync } from "node:fs";
import {
  postgresAvailable,
  removeDir,
  round,
  scratchDatabase,
  serverBundle,
  signUp,
  startServer,
  stats,
} from "./lib/harness.mjs";

export const description =
  "GET /api/user and message sends, this build vs BENCH_BASELINE_BUNDLE (interleaved medians)";

const CONNECTIONS = 10;
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const ROUNDS = Number(process.env.BENCH_STACK_ROUNDS ?? 5);

async function cannon(options) {
  const { default: autocannon } = await import("autocannon");
  await autocannon({ ...options, connections: CONNECTIONS, duration: WARMUP });
  const r = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION });
  const failed = r.non2xx + r.errors + r.timeouts;
  if (failed > 0) {
    throw new Error(
      `${options.method ?? "GET"} ${options.url}: ${failed} failed of ${r.requests.total}`,
    );
  }
  return { requestsPerSecond: round(r.requests.average), p99Ms: r.latency.p99 };
}

/** One server (a bundle on a backend) with a signed-in owner and one client to write to. */
async function target(label, bundle, databaseUrl) {
  const server = await startServer({ label: `stack-${label}`, databaseUrl, bundle });
  const { cookie } = await signUp(server);
  const headers = { cookie, origin: server.url, "content-type": "application/json" };
  const added = await fetch(`${server.url}/api/clients`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: "Bench Client", email: "bench-client@example.test" }),
  });
  if (added.status !== 201) throw new Error(`add client: ${added.status} ${await added.text()}`);
  const client = await added.json();
  return {
    user: () => cannon({ url: `${server.url}/api/user`, headers: { cookie } }),
    send: () =>
      cannon({
        url: `${server.url}/api/clients/${client.id}/messages`,
        method: "POST",
        headers,
        body: JSON.stringify({ content: "A message of ordinary length, sent to measure sends." }),
      }),
    async stop() {
      await server.stop();
      removeDir(server.dataDir);
    },
  };
}

async function compare(backend, databaseUrls, log) {
  const baselineBundle = process.env.BENCH_BASELINE_BUNDLE;
  const builds = {
    baseline: await target(`${backend}-baseline`, baselineBundle, databaseUrls?.[0]),
    current: await target(`${backend}-current`, serverBundle, databaseUrls?.[1]),
  };
  const rounds = [];
  try {
    for (let i = 1; i <= ROUNDS; i += 1) {
      const result = { baseline: {}, current: {} };
      for (const endpoint of ["user", "send"]) {
        const order = i % 2 === 0 ? ["current", "baseline"] : ["baseline", "current"];
        for (const build of order) {
          result[build][endpoint] = await builds[build][endpoint]();
          log(
            `${backend} round ${i}/${ROUNDS} ${endpoint} ${build}: ${result[build][endpoint].requestsPerSecond} req/s`,
          );
        }
      }
      rounds.push(result);
    }
  } finally {
    for (const build of Object.values(builds)) await build.stop();
  }
  const summary = (endpoint) => ({
    baseline: stats(rounds.map((r) => r.baseline[endpoint].requestsPerSecond)),
    current: stats(rounds.map((r) => r.current[endpoint].requestsPerSecond)),
    ratio: stats(
      rounds.map(
        (r) => r.current[endpoint].requestsPerSecond / r.baseline[endpoint].requestsPerSecond,
      ),
      3,
    ),
  });
  return { user: summary("user"), send: summary("send") };
}

export async function run({ log = console.log } = {}) {
  const baselineBundle = process.env.BENCH_BASELINE_BUNDLE;
  if (!baselineBundle || !existsSync(baselineBundle)) {
    throw new Error(
      "set BENCH_BASELINE_BUNDLE to the dist/server/index.mjs of the build to compare with",
    );
  }
  const result = { connections: CONNECTIONS, durationS: DURATION, rounds: ROUNDS, baselineBundle };
  result.pglite = await compare("pglite", null, log);
  const pg = await postgresAvailable();
  if (pg.available) {
    const databases = [await scratchDatabase(), await scratchDatabase()];
    try {
      result.postgres = await compare(
        "postgres",
        databases.map((d) => d.url),
        log,
      );
    } finally {
      for (const database of databases) await database.drop();
    }
  } else {
    result.postgres = { skipped: pg.reason };
  }
  return result;
}

export function summarize(result) {
  const lines = [];
  for (const backend of ["pglite", "postgres"]) {
    const r = result[backend];
    if (!r || r.skipped) continue;
    for (const [endpoint, label] of [
      ["user", "GET /api/user"],
      ["send", "POST messages"],
    ]) {
      const s = r[endpoint];
      lines.push(
        `${backend} ${label}: baseline ${s.baseline.median} req/s, current ${s.current.median} req/s, ratio median ${s.ratio.median} (${s.ratio.min}..${s.ratio.max})`,
      );
    }
  }
  return lines;
}
