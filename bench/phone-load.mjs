// A conversation of MESSAGES (20) messages opened on Lighthouse's mobile profile, in headless
// Chromium through the DevTools protocol: 150 ms round trip, 1.6 Mbps down, 750 Kbps up, CPU
// slowed 4x, a 375x667 viewport and a cold cache (a fresh browser context per run). Measured
// per run: the time from navigation start until the newest message is on screen (in the page:
// a check on every animation frame that the message's text is in the viewport and is what a
// tap at its centre would hit, so a message scrolled out of its list does not count), the
// bytes transferred until then (Network.loadingFinished encodedDataLength, headers included)
// and the API requests made until then.
//
// Three pages, interleaved run by run, the first run of each discarded (it warms the server):
//  - floor: a static HTML page with the same 20 messages (sender, time, text) and a little
//    inline CSS, served by a bare Node HTTP server in the bench process (no framework, one
//    request; see docs/benchmarks.md). What a phone cannot beat on this network.
//  - portal: the client at /client/{id} on the production bundle (PGlite);
//  - dashboard: the owner at /?client={id}.
//
// Environment: BENCH_PHONE_RUNS (measured runs per page, default 5), BENCH_PHONE_MESSAGES (20),
// BENCH_PHONE_SHOTS (a directory: a screenshot of each page as measured), CHROMIUM_PATH
// (default /usr/bin/chromium).
import { existsSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { isStale } from "../scripts/lib/freshness.mjs";
import { removeDir, round, serverBundle, startServer, stats, tempDir } from "./lib/harness.mjs";
import { makeSeed, seedConversations, withPglite } from "./lib/seed.mjs";

export const description =
  "a 20-message conversation on a throttled phone (Lighthouse mobile): time to newest message, bytes, vs a static page";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Lighthouse's mobile profile (DevTools throttling). */
export const PHONE = {
  latencyMs: 150,
  downloadBytesPerSecond: (1.6 * 1024 * 1024) / 8,
  uploadBytesPerSecond: (750 * 1024) / 8,
  cpuSlowdown: 4,
  viewport: { width: 375, height: 667 },
};

const TARGET = { ms: 1500, kb: 150 };
/** How long after rendering the newest message a page has to bring it on screen. */
const SHOWN_GRACE_MS = 5_000;

function settings(options = {}) {
  return {
    runs: options.runs ?? Number(process.env.BENCH_PHONE_RUNS ?? 5),
    messages: options.messages ?? Number(process.env.BENCH_PHONE_MESSAGES ?? 20),
  };
}

export async function run(options = {}) {
  const log = options.log ?? console.log;
  const config = settings(options);
  if (isStale("web")) {
    log("web build missing or out of date: building it");
    const { buildWeb } = await import("../scripts/build.mjs");
    await buildWeb();
  }
  if (isStale("server")) {
    const { buildServer } = await import("../scripts/build.mjs");
    await buildServer();
  }
  if (!existsSync(serverBundle)) throw new Error("dist/server is missing: npm run build first");
  if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath} (CHROMIUM_PATH)`);

  const dataDir = tempDir("phone");
  let server = await startServer({ dataDir, label: "phone" });
  const [conversation] = makeSeed(1);
  const texts = messageTexts(config.messages);
  // The server holds the embedded database while it runs: stop, write, start again.
  await server.stop();
  await withPglite(path.join(dataDir, "pglite"), async (query) => {
    await seedConversations(query, [conversation]);
    await seedMessages(query, conversation, texts);
  });
  server = await startServer({ dataDir, label: "phone" });
  const floor = await startFloor(conversation, texts);
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const newest = texts.at(-1).content.slice(0, 12);
  const pages = {
    floor: { url: `${floor.url}/conversation`, cookie: null },
    portal: {
      url: `${server.url}/client/${conversation.clientId}`,
      cookie: { token: conversation.clientToken, url: server.url },
    },
    dashboard: {
      url: `${server.url}/?client=${conversation.clientId}`,
      cookie: { token: conversation.ownerToken, url: server.url },
    },
  };
  const samples = Object.fromEntries(Object.keys(pages).map((name) => [name, []]));
  try {
    for (let i = 0; i < config.runs + 1; i += 1) {
      for (const [name, page] of Object.entries(pages)) {
        const sample = await openOnPhone(browser, page, newest, i === 1 ? name : null);
        if (i === 0) continue; // warms the server (and the bench's own code paths)
        samples[name].push(sample);
        log(
          `run ${i} ${name}: ${sample.ms === null ? `never on screen (rendered at ${Math.round(sample.renderedMs)} ms)` : `${Math.round(sample.ms)} ms`}, ${round(sample.bytes / 1024)} KB, ${sample.apiRequests} API requests`,
        );
      }
    }
  } finally {
    await browser.close();
    await floor.close();
    await server.stop();
    removeDir(dataDir);
  }
  const summary = (list) => ({
    ms: list.every((s) => s.ms !== null) ? stats(list.map((s) => s.ms)) : null,
    neverOnScreen: list.filter((s) => s.ms === null).length,
    renderedMs: stats(list.map((s) => s.renderedMs)),
    kb: stats(list.map((s) => s.bytes / 1024)),
    /** Everything the DevTools protocol saw finish by the end of the run (lazy loads too). */
    allKb: stats(list.map((s) => s.cdpBytes / 1024)),
    apiRequests: stats(
      list.map((s) => s.apiRequests),
      0,
    ),
    requests: list.at(-1).requests,
  });
  const result = {
    profile: PHONE,
    messages: config.messages,
    floor: summary(samples.floor),
    portal: summary(samples.portal),
    dashboard: summary(samples.dashboard),
    target: TARGET,
  };
  for (const name of ["portal", "dashboard"]) {
    if (result[name].ms)
      result[name].ratioToFloor = round(result[name].ms.median / result.floor.ms.median, 2);
  }
  return result;
}

export function summarize(result) {
  const line = (label, r) =>
    `${label.padEnd(10)} newest message ` +
    (r.ms
      ? `on screen: median ${r.ms.median} ms (${r.ms.min}-${r.ms.max})`
      : `NOT on screen in ${r.neverOnScreen} of ${r.renderedMs.runs} runs; rendered (off screen) at median ${r.renderedMs.median} ms`) +
    `${r.ratioToFloor ? `, ${r.ratioToFloor}x the floor` : ""}; ${r.kb.median} KB transferred until then (${r.allKb.median} KB by the end); ${r.apiRequests.median} API requests`;
  return [
    `${result.messages} messages, 150 ms RTT, 1.6 Mbps down, CPU 4x slower, 375x667, cold cache; medians of ${result.floor.ms.runs} runs`,
    line("floor", result.floor),
    line("portal", result.portal),
    line("dashboard", result.dashboard),
    `target (portal): <= ${result.target.ms} ms and <= ${result.target.kb} KB`,
  ];
}

/** Messages alternating between the two sides, a minute apart, the newest last. */
function messageTexts(count) {
  const start = Date.now() - count * 60_000;
  return Array.from({ length: count }, (_, i) => ({
    side: i % 2 === 0 ? "client" : "owner",
    content: `Message ${i + 1}: a line of ordinary length, as people write them, about the next draft.`,
    createdAt: new Date(start + i * 60_000),
  }));
}

async function seedMessages(query, c, texts) {
  await query(
    `insert into messages (client_id, sender_id, sender_role, content, created_at)
     select $1::uuid,
            case when e->>'side' = 'owner' then $2::uuid else $3::uuid end,
            e->>'side', e->>'content', (e->>'createdAt')::timestamptz
       from json_array_elements($4::json) with ordinality as t(e, n)
      order by n`,
    [c.clientId, c.ownerId, c.clientUserId, JSON.stringify(texts)],
  );
}

const escapeHtml = (text) =>
  text.replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);

/** The floor: one static page of the conversation from a bare Node HTTP server. */
async function startFloor(c, texts) {
  const items = texts
    .map(
      (m) =>
        `<li class="${m.side}"><span class="who">${m.side === "owner" ? `Owner ${c.i}` : `Client ${c.i}`}</span> ` +
        `<time>${m.createdAt.toISOString().slice(11, 16)}</time><p>${escapeHtml(m.content)}</p></li>`,
    )
    .join("\n");
  const html = Buffer.from(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conversation</title>
<style>
body{margin:0;font:15px/1.4 system-ui,sans-serif;color:#1f2937;background:#f8fafc;display:flex;flex-direction:column;height:100vh}
header{padding:12px 16px;background:#fff;border-bottom:1px solid #e5e7eb;font-weight:600}
ol{flex:1;overflow-y:auto;margin:0;padding:12px 16px;list-style:none}
li{margin:8px 0;max-width:80%}li.owner{margin-left:auto}
p{margin:4px 0 0;padding:8px 12px;border-radius:12px;background:#fff;border:1px solid #e5e7eb}
li.owner p{background:#0b6fcc;color:#fff;border:0}.who{font-weight:600;font-size:13px}time{color:#6b7280;font-size:12px}
form{padding:12px 16px;background:#fff;border-top:1px solid #e5e7eb}textarea{width:100%;box-sizing:border-box}
</style></head><body><header>Owner ${c.i}</header>
<ol id="list">
${items}
</ol>
<form><label for="m">Message</label><textarea id="m" rows="2"></textarea></form>
<script>var l=document.getElementById("list");l.scrollTop=l.scrollHeight;</script>
</body></html>
`);
  const server = http.createServer((req, res) => {
    if (req.url !== "/conversation") {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "content-length": html.length,
      "cache-control": "no-cache",
    });
    res.end(html);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://localhost:${server.address().port}`,
    htmlBytes: html.length,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * In the page from its first script on: on every animation frame, whether an element whose
 * own text starts with `newest` is in the viewport and on top at its centre; the time
 * (performance.now(), from navigation start) lands in window.__newestShownAt.
 */
function watchForNewest(newest) {
  const find = () =>
    document.evaluate(
      `//*[starts-with(normalize-space(text()), ${JSON.stringify(newest)})]`,
      document,
      null,
      XPathResult.FIRST_ORDERED_NODE_TYPE,
      null,
    ).singleNodeValue;
  const tick = () => {
    const element = find();
    if (element) {
      const box = element.getBoundingClientRect();
      if (box.height > 0 && window.__newestRenderedAt === undefined) {
        window.__newestRenderedAt = performance.now();
      }
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      if (box.height > 0 && y > 0 && y < innerHeight && x > 0 && x < innerWidth) {
        const hit = document.elementFromPoint(x, y);
        if (hit && (element.contains(hit) || hit.contains(element))) {
          window.__newestShownAt = performance.now();
          return;
        }
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** BENCH_PHONE_SHOTS=dir: a screenshot of each page (first measured run) once measured. */
const shotsDir = process.env.BENCH_PHONE_SHOTS;

async function openOnPhone(browser, target, newest, shotName) {
  const context = await browser.newContext({
    viewport: PHONE.viewport,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  try {
    if (target.cookie) {
      await context.addCookies([
        { name: "sid", value: target.cookie.token, url: target.cookie.url },
      ]);
    }
    await context.addInitScript(watchForNewest, newest);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: PHONE.latencyMs,
      downloadThroughput: PHONE.downloadBytesPerSecond,
      uploadThroughput: PHONE.uploadBytesPerSecond,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: PHONE.cpuSlowdown });
    const finished = [];
    const urls = new Map();
    cdp.on("Network.requestWillBeSent", (event) => urls.set(event.requestId, event.request.url));
    cdp.on("Network.loadingFinished", (event) => {
      finished.push({ bytes: event.encodedDataLength, url: urls.get(event.requestId) });
    });
    const apiRequests = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/")) apiRequests.push(performance.now());
    });
    const started = performance.now();
    await page.goto(target.url, { waitUntil: "commit" });
    // A page that renders the message but never brings it into view (the dashboard at 375 px
    // before issue 12) is given SHOWN_GRACE_MS after rendering it, then reported as such.
    await page.waitForFunction(
      (grace) =>
        window.__newestShownAt !== undefined ||
        (window.__newestRenderedAt !== undefined &&
          performance.now() - window.__newestRenderedAt > grace),
      SHOWN_GRACE_MS,
      { timeout: 60_000, polling: 100 },
    );
    // Bytes until then from the page's own clock (Resource Timing transferSize: headers and
    // encoded body, the document included), and everything the DevTools protocol saw finish.
    const { ms, renderedMs, bytes, requests } = await page.evaluate(() => {
      const shownAt = window.__newestShownAt ?? window.__newestRenderedAt;
      const entries = [
        ...performance.getEntriesByType("navigation"),
        ...performance.getEntriesByType("resource"),
      ].filter((entry) => entry.responseEnd <= shownAt);
      return {
        ms: window.__newestShownAt ?? null,
        renderedMs: window.__newestRenderedAt,
        bytes: entries.reduce((sum, entry) => sum + entry.transferSize, 0),
        requests: entries.map(
          (entry) =>
            `${new URL(entry.name).pathname} ${entry.transferSize} B, ${Math.round(entry.startTime)}-${Math.round(entry.responseEnd)} ms`,
        ),
      };
    });
    if (shotsDir && shotName)
      await page.screenshot({ path: path.join(shotsDir, `phone-load-${shotName}.png`) });
    const shownAt = started + (ms ?? renderedMs);
    return {
      ms,
      renderedMs,
      bytes,
      cdpBytes: finished.reduce((sum, entry) => sum + entry.bytes, 0),
      apiRequests: apiRequests.filter((at) => at <= shownAt).length,
      requests,
    };
  } finally {
    await context.close();
  }
}
