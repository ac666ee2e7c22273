#!/usr/bin/env node
// `npm run bench [-- name ...]`: runs the benchmarks in bench/*.mjs (all, or those named), on
// the production server bundle (built first when missing or stale), prints a summary and
// writes the results as JSON to .bench/<time>.json and .bench/latest.json.
//
// A benchmark is a file bench/<name>.mjs exporting
//   run({ log }) -> Promise<result object>     (required)
//   summarize(result) -> string[]              (optional: summary lines)
//   description                                (optional: one line for --list)
// Helpers live in bench/lib/, processes they start in bench/fixtures/.
//
// Every bench/<name>.mjs is picked up by its name (cold-start, user-throughput, realtime,
// uploads, downloads, ...); no list to keep here.
//
// Environment: BENCH_DATABASE_URL (PostgreSQL server for scratch databases; default
// postgres://postgres@127.0.0.1:5432/test), BENCH_COLD_START_RUNS, BENCH_DURATION, BENCH_WARMUP,
// BENCH_UPLOAD_RUNS, BENCH_UPLOAD_CONCURRENCY, BENCH_DOWNLOAD_ROUNDS.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isStale, root } from "./lib/freshness.mjs";

const benchDir = path.join(root, "bench");
const outDir = path.join(root, ".bench");

function available() {
  return readdirSync(benchDir)
    .filter((file) => file.endsWith(".mjs"))
    .map((file) => file.replace(/\.mjs$/, ""))
    .sort();
}

function gitCommit() {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root });
    const dirty = execFileSync("git", ["status", "--porcelain"], { cwd: root }).length > 0;
    return `${commit.toString().trim()}${dirty ? "+dirty" : ""}`;
  } catch {
    return null;
  }
}

async function main(args) {
  const names = available();
  if (args.includes("--list") || args.includes("--help")) {
    console.log("usage: npm run bench [-- name ...]\n");
    for (const name of names) {
      const { description = "" } = await import(
        pathToFileURL(path.join(benchDir, `${name}.mjs`)).href
      );
      console.log(`  ${name.padEnd(18)} ${description}`);
    }
    return 0;
  }
  const unknown = args.filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    console.error(`unknown bench: ${unknown.join(", ")} (available: ${names.join(", ")})`);
    return 2;
  }
  const selected = args.length > 0 ? args : names;

  if (isStale("server")) {
    console.log("bench: server bundle missing or out of date: building it");
    const { buildServer } = await import("./build.mjs");
    await buildServer();
  }

  const report = {
    startedAt: new Date().toISOString(),
    commit: gitCommit(),
    machine: {
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? "",
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))),
    },
    benches: {},
  };
  const summaries = [];
  const [load] = os.loadavg();
  if (load > report.machine.cpus / 2) {
    console.warn(
      `bench: load average is ${load.toFixed(1)} on ${report.machine.cpus} CPUs: other work is running, figures will be noisy`,
    );
  }
  let failed = 0;

  for (const name of selected) {
    const bench = await import(pathToFileURL(path.join(benchDir, `${name}.mjs`)).href);
    console.log(`\n=== ${name}${bench.description ? `: ${bench.description}` : ""}`);
    const started = performance.now();
    try {
      const result = await bench.run({ log: (line) => console.log(`  ${line}`) });
      const seconds = (performance.now() - started) / 1000;
      report.benches[name] = { seconds: Number(seconds.toFixed(1)), result };
      summaries.push([name, bench.summarize?.(result) ?? [JSON.stringify(result)]]);
    } catch (error) {
      failed += 1;
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      console.error(`  FAILED: ${message}`);
      report.benches[name] = { error: message };
      summaries.push([name, [`FAILED: ${message.split("\n")[0]}`]]);
    }
  }

  mkdirSync(outDir, { recursive: true });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const file = path.join(outDir, `${report.startedAt.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, json);
  writeFileSync(path.join(outDir, "latest.json"), json);

  console.log(
    `\n=== summary (${report.commit ?? "no commit"}, node ${process.version}, ${report.machine.cpus} CPUs, load ${report.machine.loadAverage[0]})`,
  );
  for (const [name, lines] of summaries) {
    console.log(`${name}:`);
    for (const line of lines) console.log(`  ${line}`);
  }
  console.log(`\nresults: ${path.relative(root, file)} (and .bench/latest.json)`);
  return failed > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
