// Scrolling back through a long conversation on a phone: one conversation of MESSAGES (10,000)
// messages, written straight into the database (PGlite, one statement), opened by the client
// in the portal /client/{id} in headless Chromium at 375x812 (a phone: touch, 2x pixels), its
// CPU slowed 4x through the DevTools protocol (Emulation.setCPUThrottlingRate), no network
// throttling (this measures the page, not the network). Per run, in a fresh browser context:
//  - open: navigation to the newest message on screen;
//  - back to the start: the message log scrolled up by STEP px each animation frame (a brisk
//    flick, as a thumb would) until "This is the start of your conversation" shows and the
//    view is at the top, older pages loading on the way (50 messages a page);
//  - down again: with everything loaded, scrolled down by STEP px a frame to the newest
//    message (the cost of the whole history in the page);
// for each scroll: its time, the jumps (frames in which the message in the middle of the view
// moved other than by the scroll asked for: an older page thrown in above it, a row resized),
// the frames (requestAnimationFrame deltas: p50, p95, max, and how
// many took over 50 ms), the long tasks (PerformanceObserver "longtask": count and total), and
// at the end the JS heap (Performance.getMetrics JSHeapUsedSize) and DOM nodes. A scroll that
// has not reached its end after LIMIT_S seconds stops there and says how far it got.
//
// BENCH_CHAT_BASELINE=<dir>: a checkout of an earlier commit with its build in <dir>/dist (and
// node_modules): each run then measures it too, turn about with this checkout's build (which
// goes first alternates), so that both see the same load on a shared machine.
//
// Environment: BENCH_CHAT_MESSAGES (10000), BENCH_CHAT_RUNS (1), BENCH_CHAT_STEP (200 px),
// BENCH_CHAT_LIMIT_S (300 per scroll), BENCH_CHAT_CPU (4), BENCH_CHAT_BASELINE (none),
// CHROMIUM_PATH (/usr/bin/chromium).
import { existsSync } from "node:fs";
import path from "node:path";
import { isStale } from "../scripts/lib/freshness.mjs";
import {
  removeDir,
  root,
  round,
  serverBundle,
  startServer,
  stats,
  tempDir,
} from "./lib/harness.mjs";
import { makeSeed, seedConversations, withPglite } from "./lib/seed.mjs";

export const description =
  "a 10,000-message conversation on a phone (CPU 4x slower): open, scroll back to the start and down again; frames, long tasks, heap";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const VIEWPORT = { width: 375, height: 812 };

function settings(options = {}) {
  const env = (name, fallback) => Number(process.env[name] ?? fallback);
  return {
    messages: options.messages ?? env("BENCH_CHAT_MESSAGES", 10_000),
    runs: options.runs ?? env("BENCH_CHAT_RUNS", 1),
    step: options.step ?? env("BENCH_CHAT_STEP", 200),
    limitS: options.limitS ?? env("BENCH_CHAT_LIMIT_S", 300),
    cpu: options.cpu ?? env("BENCH_CHAT_CPU", 4),
  };
}

export async function run(options = {}) {
  const log = options.log ?? console.log;
  const config = settings(options);
  for (const part of ["web", "server"]) {
    if (isStale(part)) {
      log(`${part} build missing or out of date: building it`);
      const build = await import("../scripts/build.mjs");
      await (part === "web" ? build.buildWeb() : build.buildServer());
    }
  }
  if (!existsSync(serverBundle)) throw new Error("dist/server is missing: npm run build first");
  if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath} (CHROMIUM_PATH)`);

  const [conversation] = makeSeed(1);
  const builds = { current: root };
  if (process.env.BENCH_CHAT_BASELINE)
    builds.baseline = path.resolve(process.env.BENCH_CHAT_BASELINE);
  const servers = {};
  const dataDirs = [];
  const { chromium } = await import("playwright-core");
  let browser;
  const samples = Object.fromEntries(Object.keys(builds).map((name) => [name, []]));
  try {
    for (const [name, cwd] of Object.entries(builds)) {
      const bundle = path.join(cwd, "dist/server/index.mjs");
      const dataDir = tempDir(`chat-scroll-${name}`);
      dataDirs.push(dataDir);
      const server = await startServer({ dataDir, label: `chat-scroll-${name}`, bundle, cwd });
      // The server holds the embedded database while it runs: stop, write, start again.
      await server.stop();
      await withPglite(path.join(dataDir, "pglite"), async (query) => {
        await seedConversations(query, [conversation]);
        await seedMessages(query, conversation, config.messages);
      });
      servers[name] = await startServer({ dataDir, label: `chat-scroll-${name}`, bundle, cwd });
    }
    log(`${config.messages} messages seeded for ${Object.keys(builds).join(" and ")}`);
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
    for (let i = 0; i < config.runs; i += 1) {
      const order = Object.keys(builds);
      if (i % 2 === 1) order.reverse();
      for (const name of order) {
        log(`run ${i + 1}, ${name}`);
        const sample = await scrollOnPhone(browser, servers[name], conversation, config, log);
        samples[name].push(sample);
        log(`run ${i + 1}, ${name}: ${JSON.stringify(sample)}`);
      }
    }
  } finally {
    await browser?.close();
    for (const server of Object.values(servers)) await server.stop();
    for (const dir of dataDirs) removeDir(dir);
  }
  const result = {
    messages: config.messages,
    viewport: VIEWPORT,
    cpuSlowdown: config.cpu,
    stepPx: config.step,
  };
  for (const [name, list] of Object.entries(samples)) {
    result[name] = { openMs: stats(list.map((s) => s.openMs)), runs: list };
  }
  if (builds.baseline) result.baselineDir = builds.baseline;
  return result;
}

export function summarize(result) {
  const scroll = (label, s) =>
    `${label}: ${s.done ? "" : `NOT DONE in ${s.seconds} s (${s.messages} messages loaded), `}` +
    `${s.seconds} s, ${s.frames.count} frames: p50 ${s.frames.p50} ms, p95 ${s.frames.p95} ms, max ${s.frames.max} ms, ${s.frames.over50} over 50 ms; ` +
    `${s.longTasks.count} long tasks (${s.longTasks.totalMs} ms); ${s.jumps.count} jumps (largest ${s.jumps.maxPx} px)`;
  const lines = [
    `${result.messages} messages, ${result.viewport.width}x${result.viewport.height}, CPU ${result.cpuSlowdown}x slower, ${result.stepPx} px a frame`,
  ];
  for (const name of ["baseline", "current"]) {
    const build = result[name];
    if (!build) continue;
    lines.push(
      `${name}: open (newest message on screen) median ${build.openMs.median} ms (${build.openMs.min}-${build.openMs.max})`,
    );
    for (const [i, r] of build.runs.entries()) {
      lines.push(`${name} run ${i + 1} ${scroll("up to the start", r.up)}`);
      lines.push(`${name} run ${i + 1} ${scroll("down again", r.down)}`);
      lines.push(
        `${name} run ${i + 1} at the end: ${r.heapMb} MB JS heap, ${r.domNodes} DOM nodes, ${r.messages} messages in the page`,
      );
    }
  }
  return lines;
}

/** Messages alternating between the two sides, a minute apart, one to four lines long. */
async function seedMessages(query, c, count) {
  await query(
    `insert into messages (client_id, sender_id, sender_role, content, created_at)
     select $1::uuid,
            case when g % 2 = 0 then $2::uuid else $3::uuid end,
            case when g % 2 = 0 then 'owner' else 'client' end,
            'Message ' || g || ': a line of ordinary length' ||
              repeat(', and then some more words about the draft', g % 4 * 2) || '.',
            now() - make_interval(mins => $4::int - g)
       from generate_series(1, $4::int) g
      order by g`,
    [c.clientId, c.ownerId, c.clientUserId, count],
  );
}

/** In the page from its first script on: long tasks, counted as they end. */
function watchLongTasks() {
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: true });
  } catch {
    // No long task timing in this browser: none counted.
  }
}

/**
 * In the page: scrolls the message log by `step` px a frame (up: towards the start, down:
 * towards the newest) until its end is reached or `limitMs` passes; frame deltas, long tasks
 * during the scroll, and how many messages the page holds at the end.
 */
async function scrollLog({ direction, step, limitMs }) {
  const area = document.querySelector('[role="log"]');
  const atEnd = () =>
    direction === "up"
      ? area.scrollTop <= 0 && area.querySelector(".conversation__start") !== null
      : area.scrollHeight - area.scrollTop - area.clientHeight < 2;
  const box = area.getBoundingClientRect();
  const middle = () =>
    document
      .elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
      ?.closest("[data-message-id]");
  const longTasksBefore = window.__longTasks.length;
  const deltas = [];
  /** How far a message in view moved, frame to frame, other than by the scroll asked for. */
  const jumps = [];
  let watched = null;
  const started = performance.now();
  let last = started;
  const done = await new Promise((resolve) => {
    const frame = (now) => {
      deltas.push(now - last);
      last = now;
      if (watched?.element.isConnected) {
        const moved = watched.element.getBoundingClientRect().top - watched.top;
        const jump = moved - watched.expected;
        if (Math.abs(jump) > 1) jumps.push(jump);
      }
      if (atEnd()) return resolve(true);
      if (now - started > limitMs) return resolve(false);
      const element = middle();
      const top = element?.getBoundingClientRect().top;
      const from = area.scrollTop;
      area.scrollTop = from + (direction === "up" ? -step : step);
      watched = element && { element, top, expected: from - area.scrollTop };
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  const tasks = window.__longTasks.slice(longTasksBefore);
  return {
    done,
    ms: performance.now() - started,
    deltas: deltas.slice(1),
    jumps,
    longTasks: tasks,
    messages: area.querySelectorAll("[data-message-id]").length,
  };
}

/** BENCH_CHAT_TRACE=1: the renderer's main thread time by trace event (top 12), in ms. */
function traceTotals(buffer) {
  const events = JSON.parse(buffer.toString()).traceEvents;
  const main = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  const totals = new Map();
  for (const e of events) {
    if (e.ph !== "X" || !e.dur || (main && (e.pid !== main.pid || e.tid !== main.tid))) continue;
    totals.set(e.name, (totals.get(e.name) ?? 0) + e.dur / 1000);
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([name, ms]) => `${name} ${Math.round(ms)}`)
    .join(", ");
}

function frameStats(deltas) {
  const sorted = [...deltas].sort((a, b) => a - b);
  const at = (q) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return {
    count: sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    max: round(sorted.at(-1) ?? 0),
    over50: sorted.filter((ms) => ms > 50).length,
  };
}

const scrollSummary = (s) => ({
  done: s.done,
  seconds: round(s.ms / 1000),
  messages: s.messages,
  frames: frameStats(s.deltas),
  jumps: {
    count: s.jumps.length,
    maxPx: round(Math.max(0, ...s.jumps.map(Math.abs))),
  },
  longTasks: {
    count: s.longTasks.length,
    totalMs: Math.round(s.longTasks.reduce((sum, ms) => sum + ms, 0)),
  },
});

async function scrollOnPhone(browser, server, c, config, log) {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  try {
    await context.addCookies([{ name: "sid", value: c.clientToken, url: server.url }]);
    await context.addInitScript(watchLongTasks);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: config.cpu });
    const log_ = page.getByRole("log");
    const started = performance.now();
    await page.goto(`${server.url}/client/${c.clientId}`, { waitUntil: "commit" });
    await log_
      .getByText(`Message ${config.messages}:`)
      .waitFor({ state: "visible", timeout: 60_000 });
    // On screen: scrolled to the newest message (the page does this right after rendering).
    await page.waitForFunction(
      (text) => {
        const area = document.querySelector('[role="log"]');
        const last = [...area.querySelectorAll("[data-message-id]")].at(-1);
        if (!last?.textContent.includes(text)) return false;
        const box = last.getBoundingClientRect();
        const view = area.getBoundingClientRect();
        return box.top < view.bottom && box.bottom > view.top;
      },
      `Message ${config.messages}:`,
      { polling: "raf", timeout: 60_000 },
    );
    const openMs = performance.now() - started;
    log(`opened in ${Math.round(openMs)} ms; scrolling up`);
    const limitMs = config.limitS * 1000;
    const up = scrollSummary(
      await page.evaluate(scrollLog, { direction: "up", step: config.step, limitMs }),
    );
    log(`up: ${JSON.stringify(up)}; scrolling down`);
    if (process.env.BENCH_CHAT_TRACE)
      await browser.startTracing(page, { categories: ["devtools.timeline"] });
    const down = scrollSummary(
      await page.evaluate(scrollLog, { direction: "down", step: config.step, limitMs }),
    );
    if (process.env.BENCH_CHAT_TRACE)
      log(`main thread while scrolling down: ${traceTotals(await browser.stopTracing())}`);
    const { metrics } = await cdp.send("Performance.getMetrics");
    const metric = (name) => metrics.find((m) => m.name === name)?.value ?? 0;
    return {
      openMs: round(openMs),
      up,
      down,
      heapMb: round(metric("JSHeapUsedSize") / 2 ** 20),
      domNodes: metric("Nodes"),
      messages: down.messages,
    };
  } finally {
    await context.close();
  }
}
