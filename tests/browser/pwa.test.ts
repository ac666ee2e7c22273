import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { expectToast, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

/** Set SCREENSHOT_DIR to keep screenshots of the offline shell and the Settings section. */
const shots = process.env.SCREENSHOT_DIR;

/** Waits until the service worker controls the page (it claims open pages when it activates). */
async function waitForServiceWorker(page: Page): Promise<{ scope: string; script: string }> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return { scope: registration.scope, script: registration.active?.scriptURL ?? "" };
  });
}

describe.skipIf(!browserAvailable)("the installable app (PWA)", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startTestServer(),
      launchBrowser({ notifications: true }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("links a manifest from the portal and the dashboard, each installable with icons that load", async () => {
    for (const [page, manifestPath, startUrl] of [
      ["/client", "/client.webmanifest", "/client"],
      ["/", "/manifest.webmanifest", "/"],
    ] as const) {
      const html = await (await fetch(`${server.url}${page}`)).text();
      expect(html).toContain(`<link rel="manifest" href="${manifestPath}" />`);
      expect(html).toContain('<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />');
      const answer = await fetch(`${server.url}${manifestPath}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
      const manifest = await answer.json();
      expect(manifest).toMatchObject({
        name: expect.stringContaining("ClientDesk"),
        short_name: "ClientDesk",
        start_url: startUrl,
        display: "standalone",
        theme_color: "#0093ff",
      });
      expect(startUrl.startsWith(manifest.scope)).toBe(true);
      const sizes = manifest.icons.map(
        (icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`,
      );
      expect(sizes).toEqual(
        expect.arrayContaining(["192x192 any", "512x512 any", "512x512 maskable"]),
      );
      for (const icon of manifest.icons as { src: string; sizes: string; type: string }[]) {
        const image = await fetch(`${server.url}${icon.src}`);
        expect(image.status, icon.src).toBe(200);
        expect(image.headers.get("content-type")).toBe("image/png");
        const { width, height } = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
        expect(`${width}x${height}`).toBe(icon.sizes);
      }
    }
  });

  it("serves /sw.js uncached, as JavaScript, and the CSP lets it and the manifest load", async () => {
    const answer = await fetch(`${server.url}/sw.js`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(answer.headers.get("cache-control")).toBe("no-cache");
    const csp = (await fetch(`${server.url}/client`)).headers.get("content-security-policy") ?? "";
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
  });

  it("registers the service worker in the portal, whose shell then reloads offline", async () => {
    // A server of its own, stopped halfway: offline is offline, for the worker's fetches too.
    const own = await startTestServer();
    try {
      const owner = await signUpOwner(own);
      const client = await addJoinedClient(own, owner);
      await owner.agent.post(`/api/clients/${client.id}/messages`, {
        content: "Hello from Olivia",
      });
      const page = await openPage(browser, own.url, client.agent, {
        viewport: { width: 375, height: 667 },
      });
      await page.goto(`/client/${client.id}`);
      await page.getByText("Hello from Olivia").waitFor();
      const worker = await waitForServiceWorker(page);
      expect(worker).toEqual({ scope: `${own.url}/`, script: `${own.url}/sw.js` });

      await own.close();
      const reloaded = await page.reload();
      expect(reloaded?.status()).toBe(200);
      expect(reloaded?.fromServiceWorker()).toBe(true);
      // The shell's scripts ran from the cache: the portal renders (and says it cannot reach the server).
      await page.getByText("We couldn't load this page").waitFor();
      if (shots) await page.screenshot({ path: `${shots}/portal-offline.png` });
      await page.context().close();
    } finally {
      await own.close().catch(() => undefined);
    }
  });

  it("shows the portal's Settings section: off with a Turn on button once notifications are allowed", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    const page = await openPage(browser, server.url, client.agent, {
      viewport: { width: 375, height: 667 },
    });
    await page.context().grantPermissions(["notifications"], { origin: server.url });
    await page.goto(`/client/${client.id}?tab=settings`);
    const section = page.getByRole("region", { name: "Notifications on this device" });
    await section
      .getByText("Get a notification on this device when a new message arrives")
      .waitFor();
    await section.getByRole("button", { name: "Turn on notifications" }).waitFor();
    if (shots) await page.screenshot({ path: `${shots}/portal-settings-off.png`, fullPage: true });
    // Headless Chromium has no push service: subscribing fails, and the page says so.
    await section.getByRole("button", { name: "Turn on notifications" }).click();
    await expectToast(page, "Could not turn notifications on");
    await expectToast(
      page,
      "This browser could not reach its notification service. Please try again later.",
    );
    await section.getByRole("button", { name: "Turn on notifications" }).waitFor();
    await page.context().close();
  });

  it("explains how to allow notifications again when they are blocked (dashboard settings)", async () => {
    const owner = await signUpOwner(server);
    const page = await openPage(browser, server.url, owner.agent);
    // As when the person answered "Block" to the browser's prompt: Chromium's own setting.
    const { targetInfo } = await (await page.context().newCDPSession(page)).send(
      "Target.getTargetInfo",
    );
    await (await browser.newBrowserCDPSession()).send("Browser.setPermission", {
      permission: { name: "notifications" },
      setting: "denied",
      origin: server.url,
      browserContextId: targetInfo.browserContextId,
    });
    await page.goto("/?settings=notifications");
    const section = page.getByRole("region", { name: "Notifications on this device" });
    await section.getByText("Notifications are blocked for this site.").waitFor();
    expect(await section.getByRole("button").count()).toBe(0);
    if (shots) await page.screenshot({ path: `${shots}/dashboard-settings-denied.png` });
    await page.context().close();
  });
});
