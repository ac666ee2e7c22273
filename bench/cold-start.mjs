// Cold start: time from spawning `node dist/server/index.mjs` to its first 200 on /healthz.
//   fresh:   empty DATA_DIR (PGlite: initdb) or empty database (PostgreSQL), so migrations run
//   restart: the same server started again on the data the fresh start left
// Each backend runs RUNS times (BENCH_COLD_START_RUNS, default 5).
import {
  postgresAvailable,
  removeDir,
  scratchDatabase,
  startServer,
  stats,
  tempDir,
} from "./lib/harness.mjs";

export const description = "server start to first 200 on /healthz (PGlite and PostgreSQL)";

const RUNS = Number(process.env.BENCH_COLD_START_RUNS ?? 5);

async function measure(backend, log) {
  const fresh = [];
  const restart = [];
  for (let i = 1; i <= RUNS; i++) {
    const dataDir = tempDir(`cold-${backend}`);
    const database = backend === "postgres" ? await scratchDatabase() : null;
    try {
      const first = await startServer({ dataDir, databaseUrl: database?.url });
      await first.stop();
      const second = await startServer({ dataDir, databaseUrl: database?.url });
      const { code, signal } = await second.stop();
      if (code !== 0) throw new Error(`server exited with ${signal ?? code} on SIGTERM`);
      fresh.push(first.startMs);
      restart.push(second.startMs);
      log(
        `${backend} run ${i}/${RUNS}: fresh ${first.startMs.toFixed(0)} ms, restart ${second.startMs.toFixed(0)} ms`,
      );
    } finally {
      removeDir(dataDir);
      await database?.drop();
    }
  }
  return { fresh: stats(fresh), restart: stats(restart) };
}

export async function run({ log = console.log } = {}) {
  const result = { unit: "ms", runs: RUNS, pglite: await measure("pglite", log) };
  const pg = await postgresAvailable();
  result.postgres = pg.available ? await measure("postgres", log) : { skipped: pg.reason };
  return result;
}

export function summarize(result) {
  const lines = [];
  for (const backend of ["pglite", "postgres"]) {
    const r = result[backend];
    if (!r || r.skipped) {
      lines.push(`${backend.padEnd(9)} SKIPPED: ${r?.skipped ?? "not run"}`);
      continue;
    }
    for (const kind of ["fresh", "restart"]) {
      const s = r[kind];
      lines.push(
        `${backend.padEnd(9)}${kind.padEnd(8)} median ${fmt(s.median)}  min ${fmt(s.min)}  max ${fmt(s.max)}  (${s.runs} runs)`,
      );
    }
  }
  return lines;
}

const fmt = (ms) => `${ms.toFixed(0).padStart(5)} ms`;
