// Search (GET /api/search) over a large account, on the production bundle, on PGlite and on
// PostgreSQL: one owner with CONVERSATIONS conversations of MESSAGES_EACH text messages each,
// written straight into the database with generate_series (5 to 30 words a message from a
// VOCABULARY-word vocabulary with Zipf-like frequencies: rank r is drawn with probability
// proportional to 1/r, so "the" (rank 1) is in most messages, a rank-300 word in about 0.5 %
// and the tail in a handful), plus 3 files a conversation (Invoice_2026-<n>.pdf,
// Contract_final_<n>.pdf, Brief <n>.docx). Then each query RUNS times through HTTP, one at a
// time, after 3 warm-up calls, signed in as the owner (every conversation) or as one client
// (its own): p50 and p95 in ms (target p95 <= 50 ms).
//
// Environment: BENCH_SEARCH_CONVERSATIONS (1000), BENCH_SEARCH_MESSAGES_EACH (100),
// BENCH_SEARCH_RUNS (40), BENCH_SEARCH_BACKENDS (pglite,postgres), BENCH_DATABASE_URL (see
// lib/harness.mjs).
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  postgresAvailable,
  removeDir,
  round,
  scratchDatabase,
  serverBundle,
  startServer,
  tempDir,
} from "./lib/harness.mjs";
import { withPglite, withPostgres } from "./lib/seed.mjs";

export const description =
  "GET /api/search over 100,000 messages in 1,000 conversations: p50/p95 per query (target p95 <= 50 ms)";

const VOCABULARY = 50_000;
const WARMUP = 3;

function settings(options = {}) {
  const env = (name, fallback) => Number(process.env[name] ?? fallback);
  return {
    conversations: options.conversations ?? env("BENCH_SEARCH_CONVERSATIONS", 1000),
    messagesEach: options.messagesEach ?? env("BENCH_SEARCH_MESSAGES_EACH", 100),
    runs: options.runs ?? env("BENCH_SEARCH_RUNS", 40),
    backends:
      options.backends ??
      (process.env.BENCH_SEARCH_BACKENDS ?? "pglite,postgres").split(",").map((s) => s.trim()),
  };
}

/**
 * The word of a vocabulary rank, the same in SQL (WORD_SQL) and here: "the" and "invoice"
 * for ranks 1 and 2, else 5 to 8 letters from the md5 of the rank (hex digits mapped to
 * letters g-p), which no query word of another rank shares by accident often enough to matter.
 */
export function wordOf(rank) {
  if (rank === 1) return "the";
  if (rank === 2) return "invoice";
  const hex = createHash("md5").update(String(rank)).digest("hex");
  return hex.slice(0, 5 + (rank % 4)).replace(/[0-9]/g, (digit) => "ghijklmnop"[Number(digit)]);
}

const WORD_SQL = `case r when 1 then 'the' when 2 then 'invoice'
  else translate(substr(md5(r::text), 1, 5 + r % 4), '0123456789', 'ghijklmnop') end`;

/** The queries, as the owner and as one client. */
function queries() {
  return {
    owner: [
      ["rare word (rank 30,000)", wordOf(30_000)],
      ["rare word (rank 10,000)", wordOf(10_000)],
      ["medium word (rank 300)", wordOf(300)],
      ["medium word (rank 120)", wordOf(120)],
      ["common word (`the`)", "the"],
      ["common word (`invoice`)", "invoice"],
      ["two common words", "the invoice"],
      ['phrase (`"the invoice"`)', '"the invoice"'],
      ["prefix of a common word (`th`)", "th"],
      ["prefix (`inv`)", "inv"],
      ["one letter (`k`)", "k"],
      ["file name (`contract_final`)", "contract_final"],
      ["no match", "qqqqzzzz"],
    ],
    client: [
      ["client: common word", "the"],
      ["client: rare word (rank 10,000)", wordOf(10_000)],
      ["client: prefix (`inv`)", "inv"],
    ],
  };
}

export async function run(options = {}) {
  const log = options.log ?? console.log;
  if (!existsSync(serverBundle)) throw new Error("dist/server is missing: npm run build first");
  const config = settings(options);
  const result = {
    conversations: config.conversations,
    messages: config.conversations * config.messagesEach,
    runs: config.runs,
    loadAverageAtStart: os.loadavg()[0],
  };
  if (config.backends.includes("pglite")) result.pglite = await scenario("pglite", config, log);
  if (config.backends.includes("postgres")) {
    const pg = await postgresAvailable();
    if (!pg.available) {
      result.postgres = { skipped: pg.reason };
    } else {
      const database = await scratchDatabase();
      try {
        result.postgres = await scenario("postgres", config, log, database.url);
      } finally {
        await database.drop();
      }
    }
  }
  result.loadAverageAtEnd = os.loadavg()[0];
  return result;
}

export function summarize(result) {
  const lines = [
    `${result.messages} messages in ${result.conversations} conversations, ${result.runs} runs a query; load ${round(result.loadAverageAtStart)} at start, ${round(result.loadAverageAtEnd)} at end`,
  ];
  for (const [label, key] of [
    ["PGlite", "pglite"],
    ["PostgreSQL", "postgres"],
  ]) {
    const r = result[key];
    if (!r) continue;
    if (r.skipped) {
      lines.push(`${label}: SKIPPED: ${r.skipped}`);
      continue;
    }
    lines.push(`${label} (seeded in ${r.seedSeconds} s):`);
    for (const q of r.queries) {
      lines.push(
        `  ${q.label.padEnd(34)} p50 ${String(q.p50).padStart(6)} ms  p95 ${String(q.p95).padStart(6)} ms  (${q.matches} matches, ${q.results} on the first page)`,
      );
    }
    lines.push(
      `  ${"all owner queries".padEnd(34)} p50 ${r.owner.p50} ms  p95 ${r.owner.p95} ms (target p95 <= 50)`,
    );
  }
  return lines;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return round(sorted[Math.max(0, index)]);
}

async function scenario(backend, config, log, databaseUrl) {
  const dataDir = tempDir(`search-${backend}`);
  let server = await startServer({ dataDir, databaseUrl, label: `search-${backend}` });
  try {
    const seeded = seedPlan(config);
    let counts;
    const started = performance.now();
    const write = async (query) => {
      await seed(query, seeded, config);
      counts = await countMatches(query, seeded);
    };
    if (backend === "pglite") {
      // The server holds the embedded database while it runs: stop, write, start again.
      await server.stop();
      await withPglite(path.join(dataDir, "pglite"), write);
      server = await startServer({ dataDir, label: `search-${backend}` });
    } else {
      await withPostgres(databaseUrl, write);
    }
    const seedSeconds = round((performance.now() - started) / 1000);
    log(`${backend}: seeded in ${seedSeconds} s`);

    const all = queries();
    const measured = [];
    const ownerTimes = [];
    for (const [side, list] of [
      ["owner", all.owner],
      ["client", all.client],
    ]) {
      const token = side === "owner" ? seeded.ownerToken : seeded.clientToken;
      for (const [label, q] of list) {
        const { times, results } = await measure(server.url, token, q, config.runs);
        if (side === "owner") ownerTimes.push(...times);
        const entry = {
          label,
          q,
          p50: percentile(times, 50),
          p95: percentile(times, 95),
          results,
          matches: counts[side][q],
        };
        measured.push(entry);
        log(
          `${backend} ${label}: p50 ${entry.p50} ms, p95 ${entry.p95} ms (${entry.matches} matches)`,
        );
      }
    }
    return {
      seedSeconds,
      queries: measured,
      owner: { p50: percentile(ownerTimes, 50), p95: percentile(ownerTimes, 95) },
    };
  } finally {
    await server.stop();
    removeDir(dataDir);
  }
}

export function seedPlan(config) {
  return {
    tag: randomBytes(3).toString("hex"),
    ownerId: randomUUID(),
    ownerToken: randomBytes(32).toString("base64url"),
    clientToken: randomBytes(32).toString("base64url"),
    clients: Array.from({ length: config.conversations }, () => ({
      id: randomUUID(),
      userId: randomUUID(),
    })),
  };
}

const sha256 = (value) => createHash("sha256").update(value).digest("hex");

export async function seed(query, s, config) {
  await query(
    `insert into users (id, email, full_name, role, email_verified_at, account_tier)
     values ($1, $2, 'Bench Owner', 'owner', now(), 'agency')`,
    [s.ownerId, `bench-search-owner-${s.tag}@example.test`],
  );
  const clients = JSON.stringify(s.clients.map((c, i) => ({ ...c, i })));
  await query(
    `insert into users (id, email, full_name, role)
     select (e->>'userId')::uuid, 'bench-search-' || $2 || '-' || (e->>'i') || '@example.test',
            'Client ' || (e->>'i'), 'client'
       from json_array_elements($1::json) e`,
    [clients, s.tag],
  );
  await query(
    `insert into clients (id, owner_id, user_id, name, email, joined_at)
     select (e->>'id')::uuid, $2::uuid, (e->>'userId')::uuid, 'Client ' || (e->>'i'),
            'bench-search-' || $3 || '-' || (e->>'i') || '@example.test', now()
       from json_array_elements($1::json) e`,
    [clients, s.ownerId, s.tag],
  );
  await query(
    `update users u set client_id = (e->>'id')::uuid
       from json_array_elements($1::json) e where u.id = (e->>'userId')::uuid`,
    [clients],
  );
  await query(
    `insert into sessions (id_hash, user_id, expires_at, user_agent)
     values ($1, $2, now() + interval '30 days', 'bench'), ($3, $4, now() + interval '30 days', 'bench')`,
    [sha256(s.ownerToken), s.ownerId, sha256(s.clientToken), s.clients[0].userId],
  );
  await query(`create temporary table bench_vocabulary (rank int primary key, word text not null)`);
  await query(
    `insert into bench_vocabulary select r, ${WORD_SQL} from generate_series(1, $1::int) r`,
    [VOCABULARY],
  );
  await query(`create temporary table bench_clients (n int primary key, id uuid, user_id uuid)`);
  await query(
    `insert into bench_clients select (e->>'i')::int, (e->>'id')::uuid, (e->>'userId')::uuid
       from json_array_elements($1::json) e`,
    [clients],
  );
  const total = config.conversations * config.messagesEach;
  // In slices, so that neither backend holds one huge statement's state.
  const slice = 10_000;
  for (let from = 1; from <= total; from += slice) {
    const to = Math.min(total, from + slice - 1);
    await query(
      `insert into messages (client_id, sender_id, sender_role, content, created_at)
       select c.id, case when g % 2 = 0 then $3::uuid else c.user_id end,
              case when g % 2 = 0 then 'owner' else 'client' end, t.content,
              now() - make_interval(secs => ($2::int - g) * 60)
         from generate_series($1::int, $2::int) g
         join bench_clients c on c.n = g % $4::int
         cross join lateral (
           select string_agg(v.word, ' ' order by k) as content
             from (select k, floor(exp(random() * ln($5::float8)))::int as r
                     from generate_series(1, 5 + (g * 7919) % 26) k
                    where g > 0) w
             join bench_vocabulary v on v.rank = w.r
         ) t
        order by g`,
      [from, to, s.ownerId, config.conversations, VOCABULARY],
    );
  }
  // Three files a conversation, each with its message, the newest ones.
  await query(
    `with made as (
       insert into files (stored_name, original_name, content_type, size_bytes, uploaded_by, client_id)
       select md5(random()::text) || md5(c.n::text || f::text), name, 'application/pdf', 1000, $1::uuid, c.id
         from bench_clients c
         cross join generate_series(1, 3) f
         cross join lateral (select case f when 1 then 'Invoice_2026-' || c.n || '.pdf'
                                           when 2 then 'Contract_final_' || c.n || '.pdf'
                                           else 'Brief ' || c.n || '.docx' end as name) n
       returning id, client_id)
     insert into messages (client_id, sender_id, sender_role, file_id)
     select client_id, $1::uuid, 'owner', id from made`,
    [s.ownerId],
  );
  await query("analyze");
}

/** How many messages each query matches in all, for the owner and for the first client. */
async function countMatches(query, s) {
  const counts = { owner: {}, client: {} };
  const all = queries();
  for (const [side, list] of [
    ["owner", all.owner],
    ["client", all.client],
  ]) {
    for (const [, q] of list) {
      const scope = side === "owner" ? "" : "and m.client_id = $2";
      const { rows } = await query(
        `select count(*)::int as n from messages m left join files f on f.id = m.file_id
          where (m.search_vector @@ search_query($1) or f.search_vector @@ search_query($1)) ${scope}`,
        side === "owner" ? [q] : [q, s.clients[0].id],
      );
      counts[side][q] = rows[0].n;
    }
  }
  return counts;
}

async function measure(url, token, q, runs) {
  const headers = { cookie: `sid=${token}` };
  const target = `${url}/api/search?${new URLSearchParams({ q })}`;
  const times = [];
  let results = 0;
  for (let i = 0; i < runs + WARMUP; i += 1) {
    const started = performance.now();
    const response = await fetch(target, { headers });
    const text = await response.text();
    if (!response.ok)
      throw new Error(`GET /api/search?q=${q}: ${response.status} ${text.slice(0, 200)}`);
    if (i >= WARMUP) times.push(performance.now() - started);
    results = JSON.parse(text).results.length;
  }
  return { times, results };
}
