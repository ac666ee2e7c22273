// Download throughput of a 10MB file through GET /api/download/{name} (signed in as its
// owner: session, file row, policy, stat, then the stream from local disk) on the production
// bundle (PGlite), against the same file served by bare Node (bench/fixtures/static-file.mjs)
// measured in the same run. CONNECTIONS keep-alive connections fetching the file over and over
// (lib/download-loop.mjs; autocannon cannot keep up with 10MB bodies), WARMUP s of warm-up,
// then DURATION s measured, ROUNDS times alternating the two; medians, and per-round ratios.
//
// Environment: BENCH_DOWNLOAD_ROUNDS (default 3), BENCH_DURATION (s, default 10),
// BENCH_WARMUP (s, default 2), BENCH_STORAGE (disk, the default, or s3rver: the file is kept in
// a real s3rver of its own and streamed from it through the server).
import path from "node:path";
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
import { downloadLoop } from "./lib/download-loop.mjs";
import { BENCH_STORAGE, startBenchStorage } from "./lib/storage.mjs";
import { addClient, MB, UPLOAD_BYTES, uploadFromDisk, writePdf } from "./lib/uploads.mjs";

export const description = "GET /api/download of a 10MB file: MB/s vs bare Node serving it";

const CONNECTIONS = 10;
const ROUNDS = Number(process.env.BENCH_DOWNLOAD_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);

/** WARMUP s of warm-up, then DURATION s measured. */
async function measure(url, headers = {}) {
  const options = { connections: CONNECTIONS, headers };
  await downloadLoop(url, { ...options, durationMs: WARMUP * 1000 });
  const r = await downloadLoop(url, { ...options, durationMs: DURATION * 1000 });
  return {
    MBps: round(r.bytesPerSecond / MB),
    filesPerSecond: round(r.filesPerSecond, 2),
    files: r.files,
  };
}

export async function run({ log = console.log } = {}) {
  const work = tempDir("downloads");
  const file = path.join(work, "download.pdf");
  writePdf(file, UPLOAD_BYTES);
  const storage = await startBenchStorage();
  const server = await startServer({ label: "downloads", env: storage.env });
  const port = await freePort();
  const staticServer = spawnProcess([path.join(root, "bench/fixtures/static-file.mjs")], {
    env: { PORT: String(port), FILE: file },
    logFile: path.join(work, "static.log"),
  });
  try {
    const staticUrl = `http://127.0.0.1:${port}/download.pdf`;
    await waitFor200(staticUrl, staticServer);
    const { cookie } = await signUp(server);
    const clientId = await addClient(server, cookie);
    const uploaded = await uploadFromDisk(
      `http://127.0.0.1:${server.port}/api/clients/${clientId}/upload`,
      { file, size: UPLOAD_BYTES, cookie, origin: server.url },
    );
    if (uploaded.status !== 201)
      throw new Error(`upload: ${uploaded.status} ${JSON.stringify(uploaded.body)}`);
    const downloadUrl = `http://127.0.0.1:${server.port}${uploaded.body.fileUrl}`;
    const check = await fetch(downloadUrl, { headers: { cookie } });
    const bytes = (await check.arrayBuffer()).byteLength;
    if (check.status !== 200 || bytes !== UPLOAD_BYTES)
      throw new Error(`download: ${check.status}, ${bytes} bytes`);

    // s3rver alone: the same file fetched straight from the bucket.
    const directUrl = storage.putDirect ? await storage.putDirect(file, "direct.pdf") : null;
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      const bare = await measure(staticUrl);
      const download = await measure(downloadUrl, { cookie });
      const entry = { bare, download, ratio: round(download.MBps / bare.MBps, 3) };
      if (directUrl) entry.s3rverDirect = await measure(directUrl);
      rounds.push(entry);
      log(
        `round ${i + 1}/${ROUNDS}: /api/download ${download.MBps} MB/s (${download.filesPerSecond} files/s), bare Node ${bare.MBps} MB/s, ratio ${entry.ratio}${directUrl ? `, GET from s3rver alone ${entry.s3rverDirect.MBps} MB/s` : ""}`,
      );
    }
    return {
      storage: BENCH_STORAGE,
      connections: CONNECTIONS,
      fileBytes: UPLOAD_BYTES,
      rounds: ROUNDS,
      durationS: DURATION,
      warmupS: WARMUP,
      downloadMBps: stats(rounds.map((r) => r.download.MBps)),
      bareNodeMBps: stats(rounds.map((r) => r.bare.MBps)),
      ...(directUrl ? { s3rverDirectMBps: stats(rounds.map((r) => r.s3rverDirect.MBps)) } : {}),
      ratio: stats(
        rounds.map((r) => r.ratio),
        3,
      ),
      perRound: rounds,
    };
  } finally {
    await staticServer.stop();
    await server.stop();
    await storage.stop();
    removeDir(server.dataDir);
    removeDir(work);
  }
}

export function summarize(result) {
  const span = (s) => `${s.median} MB/s (${s.min}-${s.max})`;
  return [
    `${result.fileBytes / MB} MB file on ${result.storage ?? "disk"}, ${result.connections} connections, ${result.rounds} rounds of ${result.durationS} s (medians, min-max)`,
    `/api/download       ${span(result.downloadMBps)}`,
    `bare Node static    ${span(result.bareNodeMBps)}`,
    `ratio               ${result.ratio.median} (${result.ratio.min}-${result.ratio.max})`,
    ...(result.s3rverDirectMBps ? [`GET s3rver alone    ${span(result.s3rverDirectMBps)}`] : []),
  ];
}
