// Opening a long conversation, on the production bundle, on PGlite and on PostgreSQL: one
// conversation of MESSAGES messages and, for comparison, one of 10 (written straight into the
// database), then, for each
//  - the API: GET /api/clients/{id}/messages (the first page the UI asks for), RUNS times;
//  - the browser: the client portal /client/{id} and the owner dashboard /?client={id} in
//    headless Chromium, each in a fresh browser context (cold cache), from navigation to the
//    newest message on screen, PAGE_RUNS times.
// Also reports the client portal's initial JavaScript (gzip) from dist/web/client.html.
//
// Environment: BENCH_OPEN_MESSAGES (default 10000), BENCH_OPEN_RUNS (API, default 30),
// BENCH_OPEN_PAGE_RUNS (browser, default 5), BENCH_OPEN_BACKENDS (pglite,postgres),
// CHROMIUM_PATH (default /usr/bin/chromium), BENCH_DATABASE_URL (see lib/harness.mjs).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import {
  postgresAvailable,
  removeDir,
  root,
  round,
  scratchDatabase,
  serverBundle,
  startServer,
  stats,
  tempDir,
} from "./lib/harness.mjs";
import { makeSeed, seedConversations, withPglite, withPostgres } from "./lib/seed.mjs";

export const description =
  "a conversation of 10,000 messages: first page from the API, time to open in Chromium; portal JS size";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** The short conversation the long one is compared with. */
const SHORT = 10;

function settings(options = {}) {
  const env = (name, fallback) => Number(process.env[name] ?? fallback);
  return {
    messages: options.messages ?? env("BENCH_OPEN_MESSAGES", 10_000),
    runs: options.runs ?? env("BENCH_OPEN_RUNS", 30),
    pageRuns: options.pageRuns ?? env("BENCH_OPEN_PAGE_RUNS", 5),
    backends:
      options.backends ??
      (process.env.BENCH_OPEN_BACKENDS ?? "pglite,postgres").split(",").map((s) => s.trim()),
  };
}

export async function run(options = {}) {
  const log = options.log ?? console.log;
  if (!existsSync(serverBundle)) throw new Error("dist/server is missing: npm run build first");
  const config = settings(options);
  const result = { messages: config.messages, portalInitialJs: portalInitialJs() };
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
  return result;
}

export function summarize(result) {
  const js = result.portalInitialJs;
  const lines = [
    `client portal initial JS: ${js.files.join(" + ")} = ${js.gzipBytes} bytes gzip (${round(js.gzipBytes / 1024)} KiB; target 120 KB)`,
  ];
  for (const [label, key] of [
    ["PGlite", "pglite"],
    ["PostgreSQL", "postgres"],
  ]) {
    const r = result[key];
    if (!r) continue;
    if (r.skipped) {
      lines.push(`${label.padEnd(11)} SKIPPED: ${r.skipped}`);
      continue;
    }
    for (const [size, count] of [
      ["long", result.messages],
      ["short", SHORT],
    ]) {
      const c = r[size];
      const page = (m) => (m ? `median ${m.median} ms (max ${m.max})` : "no browser");
      lines.push(
        `${label.padEnd(11)} ${String(count).padStart(5)} messages: API first page (${c.api.messagesPerPage} messages, ${c.api.kb} KB) median ${c.api.ms.median} ms | ` +
          `portal open ${page(c.portal)} | dashboard open ${page(c.dashboard)}`,
      );
    }
  }
  return lines;
}

/** The scripts client.html loads at once (entry and modulepreloads), gzipped. */
function portalInitialJs() {
  const dir = path.join(root, "dist/web");
  const html = readFileSync(path.join(dir, "client.html"), "utf8");
  const files = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const gzipBytes = files.reduce(
    (sum, file) => sum + gzipSync(readFileSync(path.join(dir, file)), { level: 9 }).length,
    0,
  );
  return { files, gzipBytes };
}

async function scenario(backend, config, log, databaseUrl) {
  const dataDir = tempDir(`open-${backend}`);
  let server = await startServer({ dataDir, databaseUrl, label: `open-${backend}` });
  try {
    const [long, short] = makeSeed(2);
    const write = async (query) => {
      await seedConversations(query, [long, short]);
      await seedMessages(query, long, config.messages);
      await seedMessages(query, short, SHORT);
    };
    if (backend === "pglite") {
      // The server holds the embedded database while it runs: stop, write, start again.
      await server.stop();
      await withPglite(path.join(dataDir, "pglite"), write);
      server = await startServer({ dataDir, label: `open-${backend}` });
    } else {
      await withPostgres(databaseUrl, write);
    }
    log(`${backend}: ${config.messages} and ${SHORT} messages seeded`);
    const result = {};
    for (const [key, conversation, count] of [
      ["long", long, config.messages],
      ["short", short, SHORT],
    ]) {
      const api = await measureApi(server, conversation, config.runs);
      log(`${backend}, ${count} messages: API first page median ${api.ms.median} ms`);
      result[key] = { api, ...(await measurePages(server, conversation, config, count)) };
    }
    return result;
  } finally {
    await server.stop();
    removeDir(dataDir);
  }
}

/** Messages alternating between the two sides, a minute apart, the newest last. */
async function seedMessages(query, c, count) {
  await query(
    `insert into messages (client_id, sender_id, sender_role, content, created_at)
     select $1::uuid,
            case when g % 2 = 0 then $2::uuid else $3::uuid end,
            case when g % 2 = 0 then 'owner' else 'client' end,
            'Message ' || g || ': a line of ordinary length, as people write them.',
            now() - make_interval(mins => $4::int - g)
       from generate_series(1, $4::int) g
      order by g`,
    [c.clientId, c.ownerId, c.clientUserId, count],
  );
}

async function measureApi(server, c, runs) {
  const url = `${server.url}/api/clients/${c.clientId}/messages`;
  const headers = { cookie: `sid=${c.ownerToken}` };
  const times = [];
  let body;
  for (let i = 0; i < runs + 3; i += 1) {
    const started = performance.now();
    const response = await fetch(url, { headers });
    const text = await response.text();
    if (!response.ok) throw new Error(`GET messages: ${response.status} ${text.slice(0, 200)}`);
    if (i >= 3) times.push(performance.now() - started); // the first few warm the caches
    body = text;
  }
  const parsed = JSON.parse(body);
  const list = Array.isArray(parsed) ? parsed : (parsed.messages ?? []);
  return {
    ms: stats(times),
    messagesPerPage: list.length,
    kb: round(Buffer.byteLength(body) / 1024),
  };
}

async function measurePages(server, c, config, count) {
  if (!existsSync(chromiumPath)) return { portal: null, dashboard: null };
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const newest = `Message ${count}:`;
  const openAs = async (token, pathname) => {
    const times = [];
    for (let i = 0; i < config.pageRuns + 1; i += 1) {
      const context = await browser.newContext();
      await context.addCookies([{ name: "sid", value: token, url: server.url }]);
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${server.url}${pathname}`);
      await page.getByText(newest).first().waitFor({ timeout: 30_000 });
      if (i > 0) times.push(performance.now() - started); // the first run warms the server
      await context.close();
    }
    return stats(times);
  };
  try {
    return {
      portal: await openAs(c.clientToken, `/client/${c.clientId}`),
      dashboard: await openAs(c.ownerToken, `/?client=${c.clientId}`),
    };
  } finally {
    await browser.close();
  }
}
