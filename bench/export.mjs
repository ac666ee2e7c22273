// Issue 28's Measure: one conversation of 10,000 messages, 500 of them files of random bytes
// (2 MiB each: 1,000 MiB in all) on local disk storage, PGlite. GET /api/clients/{id}/export
// through HTTP, the ZIP written to a file as a browser would; the server's peak resident memory
// growth while it streams (VmRSS every 10 ms and VmHWM reset before; target under 100 MB) and
// the time, against `zip -r` of the same files (deflate, zip's default) and `zip -r -0`
// (stored, as the export stores files), each writing its archive to the same disk.
// The export's entries are counted back from the ZIP's central directory (yauzl).
//
// Environment: BENCH_EXPORT_BACKEND (pglite, the default, or postgres: a scratch database on
// BENCH_DATABASE_URL), BENCH_EXPORT_RUNS (default 2), BENCH_EXPORT_MESSAGES (10000),
// BENCH_EXPORT_FILES (500), BENCH_EXPORT_FILE_MB (2).
import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { createWriteStream, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { removeDir, round, scratchDatabase, startServer, stats, tempDir } from "./lib/harness.mjs";
import { statusKb, watchPeak } from "./lib/process-memory.mjs";
import { makeSeed, seedConversations, withPglite, withPostgres } from "./lib/seed.mjs";

export const description =
  "10,000 messages and 500 files (1 GB): export memory growth and time vs zip -r";

const RUNS = Number(process.env.BENCH_EXPORT_RUNS ?? 2);
const BACKEND = process.env.BENCH_EXPORT_BACKEND ?? "pglite";
const MESSAGES = Number(process.env.BENCH_EXPORT_MESSAGES ?? 10_000);
const FILES = Number(process.env.BENCH_EXPORT_FILES ?? 500);
const FILE_BYTES = Number(process.env.BENCH_EXPORT_FILE_MB ?? 2) * 1024 * 1024;
const TARGET_GROWTH_MB = 100;
const MB = 1024 * 1024;

/** Random bytes under DATA_DIR/files/<2 chars>/<name> (LocalDiskStorage's layout); their rows. */
function writeFiles(dataDir) {
  const files = [];
  for (let i = 0; i < FILES; i += 1) {
    const storedName = `${randomBytes(16).toString("base64url")}.pdf`;
    const folder = path.join(dataDir, "files", storedName.slice(0, 2));
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, storedName), randomBytes(FILE_BYTES));
    files.push({ id: randomUUID(), storedName, name: `Deliverable ${i + 1}.pdf` });
  }
  return files;
}

/** MESSAGES messages alternating sides, one in every MESSAGES/FILES carrying the next file. */
async function seedConversation(query, c, files) {
  await query(
    `insert into files (id, stored_name, original_name, content_type, size_bytes, uploaded_by, client_id, created_at)
     select (e->>'id')::uuid, e->>'storedName', e->>'name', 'application/pdf', $2::bigint, $3::uuid, $4::uuid, now()
       from json_array_elements($1::json) e`,
    [JSON.stringify(files), FILE_BYTES, c.ownerId, c.clientId],
  );
  const every = Math.floor(MESSAGES / FILES);
  await query(
    `insert into messages (client_id, sender_id, sender_role, content, file_id, requires_feedback,
                           feedback_status, created_at)
     select $1::uuid,
            case when g % 2 = 0 then $2::uuid else $3::uuid end,
            case when g % 2 = 0 then 'owner' else 'client' end,
            case when f.id is null then 'Message ' || g || ': a line of ordinary length, as people write them.' end,
            f.id,
            f.id is not null and g % ($5::int * 10) = 0,
            case when f.id is not null and g % ($5::int * 10) = 0 then 'pending' end,
            now() - make_interval(mins => $4::int - g)
       from generate_series(1, $4::int) g
       left join (select (e->>'id')::uuid as id, row_number() over () as n
                    from json_array_elements($6::json) e) f
         on g % $5::int = 0 and f.n = g / $5::int
      order by g`,
    [c.clientId, c.ownerId, c.clientUserId, MESSAGES, Math.max(1, every), JSON.stringify(files)],
  );
}

/** The ZIP's entry count, from its central directory. */
async function countEntries(file) {
  const { default: yauzl } = await import("yauzl");
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, zip) => {
      if (error) return reject(error);
      resolve(zip.entryCount);
      zip.close();
    }),
  );
}

function timeZip(args, cwd, out) {
  rmSync(out, { force: true });
  const started = performance.now();
  execFileSync("/usr/bin/zip", [...args, "-q", "-r", out, "files"], { cwd });
  const ms = performance.now() - started;
  const bytes = statSync(out).size;
  rmSync(out, { force: true });
  return { ms, bytes };
}

export async function run({ log = console.log } = {}) {
  const dataDir = tempDir("export");
  const work = tempDir("export-out");
  const env = { EXPORT_INLINE_MAX_BYTES: String(100 * 1024 * MB) };
  const database = BACKEND === "postgres" ? await scratchDatabase() : null;
  const databaseUrl = database?.url;
  let server = await startServer({ dataDir, databaseUrl, label: "export", env });
  try {
    const [c] = makeSeed(1);
    const files = writeFiles(dataDir);
    const write = async (query) => {
      await seedConversations(query, [c]);
      await seedConversation(query, c, files);
    };
    if (database) {
      await withPostgres(databaseUrl, write);
    } else {
      await server.stop(); // PGlite is the server's while it runs: seed with it stopped.
      await withPglite(path.join(dataDir, "pglite"), write);
      server = await startServer({ dataDir, label: "export", env });
    }
    log(`${BACKEND}: seeded ${MESSAGES} messages and ${FILES} files of ${FILE_BYTES / MB} MiB`);
    const url = `${server.url}/api/clients/${c.clientId}/export`;
    const headers = { cookie: `sid=${c.ownerToken}` };
    const readyRssMb = statusKb(server.child.pid, "VmRSS") / 1024;
    const out = path.join(work, "export.zip");
    const rounds = [];
    for (let i = 0; i < RUNS; i += 1) {
      const memory = watchPeak(server.child.pid);
      const started = performance.now();
      const response = await fetch(url, { headers });
      if (response.status !== 200)
        throw new Error(`export: ${response.status} ${await response.text()}`);
      await pipeline(Readable.fromWeb(response.body), createWriteStream(out));
      const exportMs = performance.now() - started;
      const { baselineMb, peakMb, growthMb } = memory.stop();
      const zipBytes = statSync(out).size;
      const entries = await countEntries(out);
      rmSync(out, { force: true });
      if (entries !== FILES + 2)
        throw new Error(`the export has ${entries} entries, not ${FILES + 2}`);
      const deflated = timeZip([], dataDir, out);
      const stored = timeZip(["-0"], dataDir, out);
      const r = {
        exportS: round(exportMs / 1000, 2),
        exportMBps: round(zipBytes / MB / (exportMs / 1000)),
        zipBytes,
        serverRssBaselineMb: round(baselineMb),
        serverRssPeakMb: round(peakMb),
        serverRssGrowthMb: round(growthMb),
        zipDeflateS: round(deflated.ms / 1000, 2),
        zipStoreS: round(stored.ms / 1000, 2),
      };
      r.ratioToZipDeflate = round(r.exportS / r.zipDeflateS, 2);
      r.ratioToZipStore = round(r.exportS / r.zipStoreS, 2);
      rounds.push(r);
      log(
        `round ${i + 1}/${RUNS}: export ${r.exportS} s (${r.exportMBps} MB/s, ${round(zipBytes / MB)} MB), ` +
          `server RSS +${r.serverRssGrowthMb} MB (${r.serverRssBaselineMb} -> ${r.serverRssPeakMb}); ` +
          `zip -r ${r.zipDeflateS} s, zip -r -0 ${r.zipStoreS} s`,
      );
    }
    const median = (key, digits = 1) =>
      stats(
        rounds.map((r) => r[key]),
        digits,
      );
    const peakGrowth = Math.max(...rounds.map((r) => r.serverRssGrowthMb));
    return {
      backend: BACKEND,
      messages: MESSAGES,
      files: FILES,
      fileBytes: FILE_BYTES,
      runs: RUNS,
      serverRssReadyMb: round(readyRssMb),
      exportS: median("exportS", 2),
      serverRssGrowthMb: median("serverRssGrowthMb"),
      zipDeflateS: median("zipDeflateS", 2),
      zipStoreS: median("zipStoreS", 2),
      ratioToZipDeflate: median("ratioToZipDeflate", 2),
      ratioToZipStore: median("ratioToZipStore", 2),
      peakGrowthMb: peakGrowth,
      targetGrowthMb: TARGET_GROWTH_MB,
      meetsTarget: peakGrowth < TARGET_GROWTH_MB,
      rounds,
    };
  } finally {
    await server.stop();
    await database?.drop();
    removeDir(dataDir);
    removeDir(work);
  }
}

export function summarize(result) {
  const verdict = result.meetsTarget ? "ok" : "ABOVE TARGET";
  return [
    `${result.backend}: ${result.messages} messages, ${result.files} files of ${result.fileBytes / MB} MiB, ${result.runs} runs (medians, min-max)`,
    `server RSS growth  ${result.peakGrowthMb} MB at most from ${result.serverRssReadyMb} MB (target < ${result.targetGrowthMb} MB: ${verdict}); median ${result.serverRssGrowthMb.median} MB`,
    `export (HTTP)      ${result.exportS.median} s (${result.exportS.min}-${result.exportS.max})`,
    `zip -r             ${result.zipDeflateS.median} s  export/zip -r ${result.ratioToZipDeflate.median}`,
    `zip -r -0          ${result.zipStoreS.median} s  export/zip -r -0 ${result.ratioToZipStore.median}`,
  ];
}
