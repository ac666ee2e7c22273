// Ten concurrent 10MB uploads through POST /api/clients/{id}/upload on the production bundle
// (PGlite, local disk storage): the server's peak resident memory growth while they run
// (target: under 50 MB in all, which shows the bodies are streamed, not held) and their
// throughput against, in the same run, a raw copy of the same bytes to disk (ten concurrent
// fs stream copies of the same file) and a bare Node HTTP server writing the bodies to disk.
// RUNS rounds, each measuring all three in turn; medians, and per-round ratios.
//
// Memory: VmRSS sampled every 10 ms, and VmHWM after resetting it through
// /proc/<pid>/clear_refs just before the uploads start (so peaks between samples count too).
//
// Environment: BENCH_UPLOAD_RUNS (default 5), BENCH_UPLOAD_CONCURRENCY (default 10),
// BENCH_STORAGE (disk, the default, or s3rver: the server stores in a real s3rver of its own).
import { rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createReadStream, createWriteStream } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import {
  freePort,
  removeDir,
  root,
  round,
  signUp,
  spawnProcess,
  startServer,
  stats,
  tempDir,
  waitFor200,
} from "./lib/harness.mjs";
import { statusKb, watchPeak } from "./lib/process-memory.mjs";
import { BENCH_STORAGE, startBenchStorage } from "./lib/storage.mjs";
import { addClient, MB, UPLOAD_BYTES, uploadFromDisk, writePdf } from "./lib/uploads.mjs";

export const description =
  "10 concurrent 10MB uploads: server memory growth, MB/s vs a raw disk copy";

const RUNS = Number(process.env.BENCH_UPLOAD_RUNS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_UPLOAD_CONCURRENCY ?? 10);
const TARGET_GROWTH_MB = 50;

const mbPerSecond = (bytes, ms) => bytes / MB / (ms / 1000);

/** Copies `file` CONCURRENCY times at once into `dir`; the wall time in ms. */
async function rawCopy(file, dir) {
  await mkdir(dir, { recursive: true });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, (_, i) =>
      pipeline(createReadStream(file), createWriteStream(path.join(dir, `copy-${i}`))),
    ),
  );
  const ms = performance.now() - started;
  rmSync(dir, { recursive: true, force: true });
  return ms;
}

/** CONCURRENCY uploads of `file` at once; the wall time in ms. Every one must answer 201. */
async function uploadsAtOnce(url, options) {
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: CONCURRENCY }, (_, i) =>
      uploadFromDisk(url, { ...options, filename: `bench-${i}.pdf` }),
    ),
  );
  const ms = performance.now() - started;
  const bad = answers.filter((answer) => answer.status !== 201);
  if (bad.length > 0) {
    throw new Error(
      `${bad.length} of ${CONCURRENCY} uploads failed: ${bad[0].status} ${JSON.stringify(bad[0].body)}`,
    );
  }
  return ms;
}

async function startSink(dir) {
  const port = await freePort();
  const handle = spawnProcess([path.join(root, "bench/fixtures/http-sink.mjs")], {
    env: { PORT: String(port), DIR: dir },
    logFile: path.join(dir, "..", "sink.log"),
  });
  await waitFor200(`http://127.0.0.1:${port}/`, handle);
  return { ...handle, url: `http://127.0.0.1:${port}/` };
}

export async function run({ log = console.log } = {}) {
  const work = tempDir("uploads");
  const file = path.join(work, "upload.pdf");
  writePdf(file, UPLOAD_BYTES);
  const sinkDir = path.join(work, "sink");
  await mkdir(sinkDir, { recursive: true });
  const storage = await startBenchStorage();
  const server = await startServer({ label: "uploads", env: storage.env });
  const sink = await startSink(sinkDir);
  try {
    const { cookie } = await signUp(server);
    const clientId = await addClient(server, cookie);
    const uploadUrl = `http://127.0.0.1:${server.port}/api/clients/${clientId}/upload`;
    const options = { file, size: UPLOAD_BYTES, cookie, origin: server.url };
    // No warm-up upload for the server: memory a first round takes is rarely given back to
    // the OS, so a warm-up would hide it. Round 1 is cold and counts for the target.
    await uploadsAtOnce(sink.url, { file, size: UPLOAD_BYTES });
    const readyRssMb = statusKb(server.child.pid, "VmRSS") / 1024;
    let overallPeakMb = readyRssMb;

    const totalBytes = UPLOAD_BYTES * CONCURRENCY;
    const rounds = [];
    for (let i = 0; i < RUNS; i++) {
      const copyMs = await rawCopy(file, path.join(work, "copies"));
      const sinkMs = await uploadsAtOnce(sink.url, { file, size: UPLOAD_BYTES });
      rmSync(sinkDir, { recursive: true, force: true });
      await mkdir(sinkDir, { recursive: true });
      // s3rver alone: the same ten bodies PUT straight to the bucket by the bench.
      let directMs = null;
      if (storage.putDirect) {
        const started = performance.now();
        await Promise.all(
          Array.from({ length: CONCURRENCY }, (_, n) => storage.putDirect(file, `direct-${n}.pdf`)),
        );
        directMs = performance.now() - started;
      }
      const memory = watchPeak(server.child.pid);
      const uploadMs = await uploadsAtOnce(uploadUrl, options);
      const { baselineMb, peakMb, growthMb, peakFromHwm } = memory.stop();
      overallPeakMb = Math.max(overallPeakMb, peakMb);
      const round_ = {
        rawCopyMBps: round(mbPerSecond(totalBytes, copyMs)),
        httpSinkMBps: round(mbPerSecond(totalBytes, sinkMs)),
        uploadMBps: round(mbPerSecond(totalBytes, uploadMs)),
        uploadMs: round(uploadMs),
        ...(directMs ? { s3rverDirectMBps: round(mbPerSecond(totalBytes, directMs)) } : {}),
        serverRssBaselineMb: round(baselineMb),
        serverRssPeakMb: round(peakMb),
        serverRssGrowthMb: round(growthMb),
        peakFromHwm,
      };
      round_.ratioToRawCopy = round(round_.uploadMBps / round_.rawCopyMBps, 3);
      round_.ratioToHttpSink = round(round_.uploadMBps / round_.httpSinkMBps, 3);
      rounds.push(round_);
      log(
        `round ${i + 1}/${RUNS}: upload ${round_.uploadMBps} MB/s, raw copy ${round_.rawCopyMBps} MB/s, ` +
          `http sink ${round_.httpSinkMBps} MB/s${directMs ? `, s3rver direct ${round_.s3rverDirectMBps} MB/s` : ""}; server RSS +${round_.serverRssGrowthMb} MB ` +
          `(${round_.serverRssBaselineMb} -> ${round_.serverRssPeakMb})`,
      );
    }
    const median = (key, digits = 1) =>
      stats(
        rounds.map((r) => r[key]),
        digits,
      );
    const growth = median("serverRssGrowthMb");
    const overallGrowthMb = round(overallPeakMb - readyRssMb);
    return {
      storage: BENCH_STORAGE,
      concurrency: CONCURRENCY,
      fileBytes: UPLOAD_BYTES,
      runs: RUNS,
      uploadMBps: median("uploadMBps"),
      rawCopyMBps: median("rawCopyMBps"),
      httpSinkMBps: median("httpSinkMBps"),
      ...(storage.putDirect ? { s3rverDirectMBps: median("s3rverDirectMBps") } : {}),
      ratioToRawCopy: median("ratioToRawCopy", 3),
      ratioToHttpSink: median("ratioToHttpSink", 3),
      serverRssGrowthMb: growth,
      serverRssBaselineMb: median("serverRssBaselineMb"),
      /** From the signed-in, idle server to the highest peak of all rounds (round 1 cold). */
      serverRssReadyMb: round(readyRssMb),
      serverRssOverallGrowthMb: overallGrowthMb,
      targetGrowthMb: TARGET_GROWTH_MB,
      meetsTarget: overallGrowthMb < TARGET_GROWTH_MB,
      rounds,
    };
  } finally {
    await sink.stop();
    await server.stop();
    await storage.stop();
    removeDir(server.dataDir);
    removeDir(work);
  }
}

export function summarize(result) {
  const verdict = result.meetsTarget ? "ok" : "ABOVE TARGET";
  return [
    `${result.concurrency} x ${result.fileBytes / MB} MB uploads to ${result.storage ?? "disk"}, ${result.runs} rounds (medians, min-max)`,
    `server RSS growth   ${result.serverRssOverallGrowthMb} MB over all rounds from the idle server at ${result.serverRssReadyMb} MB (target < ${result.targetGrowthMb} MB: ${verdict}); per round ${result.serverRssGrowthMb.median} MB (${result.serverRssGrowthMb.min}-${result.serverRssGrowthMb.max}), round 1 cold ${result.rounds[0].serverRssGrowthMb} MB`,
    `upload              ${result.uploadMBps.median} MB/s (${result.uploadMBps.min}-${result.uploadMBps.max})`,
    `raw copy to disk    ${result.rawCopyMBps.median} MB/s (${result.rawCopyMBps.min}-${result.rawCopyMBps.max})  upload/raw copy ${result.ratioToRawCopy.median}`,
    `bare Node HTTP sink ${result.httpSinkMBps.median} MB/s (${result.httpSinkMBps.min}-${result.httpSinkMBps.max})  upload/http sink ${result.ratioToHttpSink.median}`,
    ...(result.s3rverDirectMBps
      ? [
          `PUT to s3rver alone ${result.s3rverDirectMBps.median} MB/s (${result.s3rverDirectMBps.min}-${result.s3rverDirectMBps.max})`,
        ]
      : []),
  ];
}
