// Issue 27's Measure: a 50-page PDF sent for approval with 200 marks (BENCH_MARKS_PAGES,
// BENCH_MARKS_COUNT; spread over the pages, page 1 holding every fifth), opened by the client in
// the portal on the phone profile of phone-load.mjs (Lighthouse mobile through the DevTools
// protocol: 150 ms round trip, 1.6 Mbps down, CPU 4x slower, 375x667, a fresh context per run).
// Measured per run: from the click on the file's Preview (the viewer opens) to the first page
// drawn (pdf.js's canvas marked rendered) with all of its marks' pins on screen, checked in the
// page on every animation frame. Also the bytes the viewer fetched by then, by kind (pdf.js and
// its worker, the viewer's own chunk, the PDF, the marks). Runs: BENCH_MARKS_RUNS (5) after one
// warm-up; PGlite; median (target <= 1.5 s).
import { existsSync } from "node:fs";
import path from "node:path";
import { isStale } from "../scripts/lib/freshness.mjs";
import { PHONE } from "./phone-load.mjs";
import { removeDir, round, serverBundle, startServer, stats, tempDir } from "./lib/harness.mjs";
import { makeSeed, seedConversations, withPglite } from "./lib/seed.mjs";

export const description =
  "a 50-page PDF with 200 marks opened in the portal on a throttled phone: viewer open to page 1 with its marks";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const TARGET_MS = 1500;
const FILE_NAME = "Catalogue proof.pdf";

function settings(options = {}) {
  return {
    runs: options.runs ?? Number(process.env.BENCH_MARKS_RUNS ?? 5),
    pages: options.pages ?? Number(process.env.BENCH_MARKS_PAGES ?? 50),
    marks: options.marks ?? Number(process.env.BENCH_MARKS_COUNT ?? 200),
    readMs: options.readMs ?? Number(process.env.BENCH_MARKS_READ_MS ?? 3000),
  };
}

/** A proof of `pages` US-letter pages, each with a heading, text and a band (pdf-lib). */
async function proofPdf(pages) {
  const { PDFDocument, StandardFonts, rgb } = await import("pdf-lib");
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let index = 1; index <= pages; index += 1) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Catalogue page ${index}`, { x: 72, y: 700, size: 32, font });
    for (let line = 0; line < 20; line += 1)
      page.drawText(`Item ${index}.${line + 1}: a product line with its price and a note.`, {
        x: 72,
        y: 640 - line * 24,
        size: 12,
        font,
      });
    page.drawRectangle({ x: 72, y: 80, width: 468, height: 60, color: rgb(0, 0.45, 0.85) });
  }
  return Buffer.from(await pdf.save());
}

/** Mark i's page: every fifth on page 1, the others spread over the rest. */
export function pageOfMark(index, pages) {
  return index % 5 === 0 ? 1 : 2 + (index % (pages - 1));
}

async function seedReview(server, conversation, config) {
  const cookieOf = (token) => `sid=${token}`;
  const call = async (token, method, urlPath, body) => {
    const response = await fetch(`${server.url}${urlPath}`, {
      method,
      headers: {
        cookie: cookieOf(token),
        origin: server.url,
        ...(body instanceof FormData ? {} : { "content-type": "application/json" }),
      },
      body: body instanceof FormData ? body : JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok)
      throw new Error(`${method} ${urlPath}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const form = new FormData();
  form.append("requiresFeedback", "true");
  form.append("file", new Blob([await proofPdf(config.pages)]), FILE_NAME);
  const file = await call(
    conversation.ownerToken,
    "POST",
    `/api/clients/${conversation.clientId}/upload`,
    form,
  );
  let onFirstPage = 0;
  for (let i = 0; i < config.marks; i += 1) {
    const page = pageOfMark(i, config.pages);
    if (page === 1) onFirstPage += 1;
    const point = i % 3 !== 0;
    await call(
      i % 2 === 0 ? conversation.clientToken : conversation.ownerToken,
      "POST",
      `/api/messages/${file.id}/versions/1/annotations`,
      {
        page,
        x: 0.1 + ((i * 37) % 70) / 100,
        y: 0.1 + ((i * 53) % 70) / 100,
        width: point ? 0 : 0.15,
        height: point ? 0 : 0.08,
        comment: `Mark ${i + 1}: please check the price and the wording on this line.`,
      },
    );
  }
  return { fileId: file.id, onFirstPage };
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

  const dataDir = tempDir("review-marks");
  let server = await startServer({ dataDir, label: "review-marks" });
  const [conversation] = makeSeed(1);
  await server.stop();
  await withPglite(path.join(dataDir, "pglite"), async (query) => {
    await seedConversations(query, [conversation]);
    // Files for approval are a paid plan's.
    await query("update users set account_tier = 'pro' where id = $1", [conversation.ownerId]);
  });
  server = await startServer({ dataDir, label: "review-marks" });
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const samples = { atOnce: [], afterReading: [] };
  let seeded;
  try {
    seeded = await seedReview(server, conversation, config);
    log(`seeded ${config.pages} pages, ${config.marks} marks (${seeded.onFirstPage} on page 1)`);
    for (let i = 0; i < config.runs + 1; i += 1) {
      for (const [kind, readMs] of [
        ["atOnce", 0],
        ["afterReading", config.readMs],
      ]) {
        const sample = await openViewer(browser, server, conversation, seeded.onFirstPage, readMs);
        if (i === 0) continue;
        samples[kind].push(sample);
        log(
          `run ${i}, clicked after ${readMs} ms: ${Math.round(sample.ms)} ms (canvas drawn at ${Math.round(sample.drawnMs)} ms, ${sample.pins} pins); ${round(sample.kb)} KB fetched`,
        );
      }
    }
  } finally {
    await browser.close();
    await server.stop();
    removeDir(dataDir);
  }
  return {
    profile: PHONE,
    pages: config.pages,
    marks: config.marks,
    marksOnFirstPage: seeded?.onFirstPage ?? 0,
    readMs: config.readMs,
    ms: stats(samples.atOnce.map((s) => s.ms)),
    drawnMs: stats(samples.atOnce.map((s) => s.drawnMs)),
    kb: stats(samples.atOnce.map((s) => s.kb)),
    requests: samples.atOnce.at(-1)?.requests ?? [],
    afterReading: {
      ms: stats(samples.afterReading.map((s) => s.ms)),
      drawnMs: stats(samples.afterReading.map((s) => s.drawnMs)),
      kb: stats(samples.afterReading.map((s) => s.kb)),
      requests: samples.afterReading.at(-1)?.requests ?? [],
    },
    target: { ms: TARGET_MS },
  };
}

export function summarize(result) {
  return [
    `${result.pages}-page PDF, ${result.marks} marks (${result.marksOnFirstPage} on page 1), portal on the phone profile, cold cache; medians of ${result.ms.runs} runs`,
    `clicked at once: viewer open -> page 1 with its marks on screen: median ${result.ms.median} ms (${result.ms.min}-${result.ms.max}); page drawn at ${result.drawnMs.median} ms; ${result.kb.median} KB fetched by then`,
    `clicked after ${result.readMs} ms on the page (viewer warmed): median ${result.afterReading.ms.median} ms (${result.afterReading.ms.min}-${result.afterReading.ms.max}); ${result.afterReading.kb.median} KB fetched by then`,
    `target: <= ${result.target.ms} ms`,
  ];
}

/**
 * In the page: the click on Preview starts the clock (a capturing listener, before React's);
 * then on every animation frame, whether page 1's canvas is drawn and `pins` marks are shown in
 * the viewport. Times (performance.now()) land in window.__review.
 */
function watchReview(pins) {
  window.__review = {};
  document.addEventListener(
    "click",
    (event) => {
      const target = event.target instanceof Element ? event.target.closest("button") : null;
      if (target?.textContent?.trim() !== "Preview" || window.__review.openedAt) return;
      window.__review.openedAt = performance.now();
      const tick = () => {
        const canvas = document.querySelector('[role="dialog"] canvas[data-rendered]');
        if (canvas && window.__review.drawnAt === undefined)
          window.__review.drawnAt = performance.now();
        const shown = [...document.querySelectorAll('[role="dialog"] .mark-layer .mark')].filter(
          (mark) => {
            const box = mark.getBoundingClientRect();
            return (
              box.bottom >= 0 && box.top <= innerHeight && box.right >= 0 && box.left <= innerWidth
            );
          },
        );
        if (canvas && shown.length >= pins) {
          window.__review.shownAt = performance.now();
          window.__review.pins = shown.length;
          return;
        }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    },
    true,
  );
}

async function openViewer(browser, server, conversation, pins, readMs) {
  const context = await browser.newContext({
    viewport: PHONE.viewport,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  try {
    await context.addCookies([{ name: "sid", value: conversation.clientToken, url: server.url }]);
    await context.addInitScript(watchReview, pins);
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
    await page.goto(`${server.url}/client/${conversation.clientId}`);
    const card = page.locator(".file-message", { hasText: FILE_NAME });
    const preview = card.getByRole("button", { name: "Preview", exact: true });
    await preview.waitFor({ timeout: 60_000 });
    // A person reads the conversation before opening the file: the portal warms the PDF viewer
    // meanwhile (web/src/conversation/warm-pdf-viewer.ts). 0: the click comes at once.
    if (readMs > 0) await page.waitForTimeout(readMs);
    await preview.click({ timeout: 60_000 });
    await page.waitForFunction(() => window.__review.shownAt !== undefined, null, {
      timeout: 60_000,
      polling: 100,
    });
    return await page.evaluate(() => {
      const { openedAt, drawnAt, shownAt, pins: shownPins } = window.__review;
      const entries = performance
        .getEntriesByType("resource")
        .filter((entry) => entry.startTime >= openedAt && entry.responseEnd <= shownAt);
      return {
        ms: shownAt - openedAt,
        drawnMs: drawnAt - openedAt,
        pins: shownPins,
        kb: entries.reduce((sum, entry) => sum + entry.transferSize, 0) / 1024,
        requests: entries.map(
          (entry) =>
            `${new URL(entry.name).pathname} ${entry.transferSize} B, ${Math.round(entry.startTime - openedAt)}-${Math.round(entry.responseEnd - openedAt)} ms`,
        ),
      };
    });
  } finally {
    await context.close();
  }
}
