// The unanswered-messages sweep on PostgreSQL: CONVERSATIONS conversations (100 owners, every
// tenth on the agency plan) each with 10 read messages and 2 owner messages waiting for the
// client past their delay, plus the owner side's state (nothing due). One pass of the sweep
// (server/commands/send-unanswered-notifications.ts: claim with FOR UPDATE SKIP LOCKED, load the
// waiting messages, render one email per conversation, record the outcome) takes every due row;
// measured: its wall time and its number of SQL queries, RUNS times (the due state is reset
// between runs), and the query plans of the claim and the waiting-messages lookup.
// Mail goes to a counting mailer: the figure is the database and rendering work of a sweep,
// not an SMTP server's speed. Target: under 1 s per sweep.
//
// The sweep's TypeScript is bundled with esbuild into node_modules/.cache (packages external)
// and imported here, so the bench needs no server process.
//
// Environment: BENCH_SWEEP_CONVERSATIONS (default 10000), BENCH_SWEEP_RUNS (default 5),
// BENCH_DATABASE_URL (see lib/harness.mjs).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { postgresAvailable, root, round, scratchDatabase, stats } from "./lib/harness.mjs";
import { withPostgres } from "./lib/seed.mjs";

export const description =
  "email sweep over 10,000 conversations with waiting messages (PostgreSQL): time and queries";

const TARGET_MS = 1000;
const OWNERS = 100;

function settings(options) {
  return {
    conversations: Number(options.conversations ?? process.env.BENCH_SWEEP_CONVERSATIONS ?? 10_000),
    runs: Number(options.runs ?? process.env.BENCH_SWEEP_RUNS ?? 5),
  };
}

/** The sweep and what it needs, from the TypeScript sources. */
async function loadSweep() {
  const esbuild = await import("esbuild");
  const dir = path.join(root, "node_modules/.cache/clientdesk-bench");
  mkdirSync(dir, { recursive: true });
  const outfile = path.join(dir, "notification-sweep.mjs");
  await esbuild.build({
    stdin: {
      contents: `export { createDatabase } from "./server/db/connection.ts";
export { migrateToLatest } from "./server/db/migrate.ts";
export { sendUnansweredNotifications } from "./server/commands/send-unanswered-notifications.ts";`,
      resolveDir: root,
      loader: "ts",
    },
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
  return import(`${pathToFileURL(outfile).href}?${Date.now()}`);
}

async function seed(url, conversations) {
  const perOwner = Math.ceil(conversations / OWNERS);
  await withPostgres(url, async (query) => {
    await query(
      `insert into users (email, full_name, company_name, role, email_verified_at, account_tier)
       select 'sweep-owner-' || g || '@example.test', 'Owner ' || g, 'Studio ' || g, 'owner', now(),
              case when g % 10 = 0 then 'agency' else 'pro' end
         from generate_series(1, $1) g`,
      [OWNERS],
    );
    await query(
      `insert into clients (owner_id, name, email, joined_at)
       select o.id, 'Client ' || o.n || '-' || g, 'sweep-client-' || o.n || '-' || g || '@example.test', now()
         from (select id, row_number() over (order by email) as n from users where role = 'owner') o,
              generate_series(1, $1) g
        limit $2`,
      [perOwner, conversations],
    );
    // History both sides have read, then two owner messages the client has not.
    await query(
      `insert into messages (client_id, sender_role, content)
       select c.id, case when g % 2 = 0 then 'owner' else 'client' end, 'Earlier message ' || g
         from clients c, generate_series(1, 10) g`,
    );
    await query(
      `insert into notification_states (client_id, recipient_role, last_read_seq)
       select c.id, r.role, (select max(m.seq) from messages m where m.client_id = c.id)
         from clients c, (values ('owner'), ('client')) r(role)`,
    );
    await query(
      `insert into messages (client_id, sender_role, content)
       select c.id, 'owner', 'Waiting message ' || g || ': <b>see the attached plan</b> & reply'
         from clients c, generate_series(1, 2) g`,
    );
    await query("vacuum analyze");
  });
}

/** Every client side due a minute ago, nothing notified yet. */
async function makeDue(query) {
  await query(
    `update notification_states
        set due_at = now() - interval '1 minute', last_notified_seq = 0, attempts = 0, last_error = null
      where recipient_role = 'client'`,
  );
}

async function plans(url) {
  return withPostgres(url, async (query) => {
    await makeDue(query);
    const explain = async (sql, params) =>
      (await query(`explain ${sql}`, params)).rows.map((row) => row["QUERY PLAN"]).join("\n");
    const claim = await explain(
      `select client_id, recipient_role from notification_states
        where due_at <= now() order by due_at limit 500 for update skip locked`,
    );
    const sample = await query(
      "select json_agg(json_build_object('client_id', client_id, 'recipient_role', recipient_role, 'after_seq', last_read_seq)) as rows from (select * from notification_states where recipient_role = 'client' limit 500) s",
    );
    const waiting = await explain(
      `select w.client_id, x.seq
         from json_to_recordset($1::json) as w(client_id uuid, recipient_role text, after_seq bigint)
         cross join lateral (
           select m.seq, count(*) over () as total from messages m
            where m.client_id = w.client_id and m.sender_role <> w.recipient_role and m.seq > w.after_seq
            order by m.seq desc limit 10) x`,
      [JSON.stringify(sample.rows[0].rows)],
    );
    return { claim, waiting };
  });
}

export async function run(options = {}) {
  const log = options.log ?? console.log;
  const config = settings(options);
  const result = { conversations: config.conversations, targetMs: TARGET_MS };
  const pg = await postgresAvailable();
  if (!pg.available) {
    result.postgres = { skipped: pg.reason };
    if (options.print ?? !options.log) for (const line of summarize(result)) console.log(line);
    return result;
  }
  const sweep = await loadSweep();
  const database = await scratchDatabase();
  const db = sweep.createDatabase({ url: database.url, poolMax: 5 });
  try {
    log(`PostgreSQL: migrating and seeding ${config.conversations} conversations`);
    await sweep.migrateToLatest(db);
    await seed(database.url, config.conversations);
    const plan = await plans(database.url);

    let queries = 0;
    db.on("query", () => {
      queries += 1;
    });
    const mailer = {
      sent: 0,
      bytes: 0,
      async send(message) {
        this.sent += 1;
        this.bytes += message.html.length + message.text.length;
      },
      close() {},
    };
    const quiet = { info() {}, warn() {}, error() {}, debug() {} };
    const services = {
      db,
      mailer,
      clock: { now: () => new Date() },
      logger: quiet,
      config: { appUrl: "http://localhost:3000" },
      storage: {
        get: async () => {
          throw new Error("no logos in this bench");
        },
      },
    };
    const times = [];
    const queryCounts = [];
    let last;
    for (let i = 0; i < config.runs; i += 1) {
      await withPostgres(database.url, makeDue);
      queries = 0;
      mailer.sent = 0;
      const started = performance.now();
      last = await sweep.sendUnansweredNotifications(services);
      times.push(performance.now() - started);
      queryCounts.push(queries);
      if (mailer.sent !== config.conversations) {
        throw new Error(
          `sweep ${i + 1} sent ${mailer.sent} emails, expected ${config.conversations}`,
        );
      }
      log(`  sweep ${i + 1}: ${round(times.at(-1))} ms, ${queries} queries, ${mailer.sent} emails`);
    }
    // A second pass right after finds nothing due: the cost of an idle tick.
    queries = 0;
    const idleStarted = performance.now();
    await sweep.sendUnansweredNotifications(services);
    const idleMs = performance.now() - idleStarted;
    result.postgres = {
      sweepMs: stats(times),
      queries: stats(queryCounts, 0),
      emailsPerSweep: last?.sent,
      idleSweep: { ms: round(idleMs), queries },
      avgMailKb: round(mailer.bytes / 1024 / (config.runs * config.conversations), 1),
      plans: plan,
      claimUsesIndex: /Index Scan using notification_states_due_at_index/.test(plan.claim),
      waitingUsesIndex: /Index Scan.*messages_client_id_seq_index/.test(plan.waiting),
    };
    result.meetsTarget = result.postgres.sweepMs.median < TARGET_MS;
  } finally {
    await db.destroy();
    await database.drop();
  }
  if (options.print ?? !options.log) for (const line of summarize(result)) console.log(line);
  return result;
}

export function summarize(result) {
  const r = result.postgres;
  if (!r) return [];
  if (r.skipped) return [`PostgreSQL SKIPPED: ${r.skipped}`];
  return [
    `${result.conversations} conversations with waiting messages, one sweep each run (${r.sweepMs.runs} runs):`,
    `PostgreSQL  sweep median ${r.sweepMs.median} ms (min ${r.sweepMs.min}, max ${r.sweepMs.max}) | ` +
      `${r.queries.median} queries | ${r.emailsPerSweep} emails | idle sweep ${r.idleSweep.ms} ms, ${r.idleSweep.queries} query | ` +
      `indexes: claim ${r.claimUsesIndex ? "yes" : "NO"}, waiting messages ${r.waitingUsesIndex ? "yes" : "NO"} | ` +
      `${result.meetsTarget ? "meets" : "MISSES"} target < ${result.targetMs} ms`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await run();
}
