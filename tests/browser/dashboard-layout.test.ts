import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, setTier } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { minimalPdf } from "../support/pdf";
import { keepScreenshot, openPage, sessionOf } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

const DESKTOP = { width: 1280, height: 800 };

/**
 * The owner's dashboard is one screen: the client list and the conversation scroll inside it,
 * the page itself never does; and a client's row shows every badge it has in full.
 */
describe.skipIf(!browserAvailable)("the owner's dashboard layout", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const pageScroll = (page: Page) =>
    page.evaluate(() => {
      const root = document.scrollingElement!;
      return { top: root.scrollTop, height: root.scrollHeight, screen: root.clientHeight };
    });

  it("does not scroll as a page, with more clients (each with unread messages) than fit", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "agency");
    const names: string[] = [];
    for (let index = 1; index <= 16; index += 1) {
      const name = `Client number ${index}`;
      names.push(name);
      const client = await addJoinedClient(server, owner, { name });
      await client.agent.post(`/api/clients/${client.id}/messages`, {
        content: `Hello from ${index}`,
      });
    }
    const page = await openPage(browser, server.url, owner.agent, { viewport: DESKTOP });
    await page.goto("/");
    const list = page.getByRole("navigation", { name: "Clients" });
    await list.getByText(names[0]!, { exact: true }).waitFor();
    await expect.poll(() => list.locator(".client-list__unread").count()).toBe(16);

    // The list holds more than the screen, and scrolls itself...
    const listScroll = await list.evaluate(
      (element) => element.scrollHeight > element.clientHeight,
    );
    expect(listScroll).toBe(true);
    // ...but nothing makes the page taller than the screen.
    const before = await pageScroll(page);
    expect(before.height).toBeLessThanOrEqual(before.screen);

    // The wheel over the sidebar's top (no scroll area there) and over the list.
    await page.mouse.move(150, 60);
    await page.mouse.wheel(0, 600);
    await page.mouse.move(150, 400);
    await page.mouse.wheel(0, 2_000);
    await page.mouse.wheel(0, 2_000);
    await expect.poll(() => list.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
    expect((await pageScroll(page)).top).toBe(0);

    // A conversation open: the same.
    await list.getByText(names[3]!, { exact: true }).click();
    await page.getByRole("log").getByText("Hello from 4").waitFor();
    const open = await pageScroll(page);
    expect(open.height).toBeLessThanOrEqual(open.screen);
    await page.mouse.move(700, 40);
    await page.mouse.wheel(0, 600);
    expect((await pageScroll(page)).top).toBe(0);
    await keepScreenshot(page, "dashboard-many-clients");
  }, 90_000);

  it("on a phone, a long conversation scrolled back leaves the page itself still", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    // Runs of messages from one sender: each after the first carries its sender and time
    // for screen readers only.
    for (let index = 1; index <= 40; index += 1) {
      await client.agent.post(`/api/clients/${client.id}/messages`, {
        content: `Line ${index} of the brief`,
      });
    }
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await context.addCookies([{ name: "sid", value: sessionOf(owner.agent), url: server.url }]);
    const page = await context.newPage();
    await page.goto(`/?client=${client.id}`);
    const log = page.getByRole("log");
    await log.getByText("Line 40 of the brief").waitFor();
    await log.evaluate((element) => element.scrollTo(0, 0));
    await log.getByText("Line 1 of the brief").waitFor();
    const scroll = await pageScroll(page);
    expect(scroll.height).toBeLessThanOrEqual(scroll.screen);
    await keepScreenshot(page, "phone-conversation-scrolled-back");
    await context.close();
  }, 60_000);

  it("shows Awaiting reply and 1 file to approve in full on one client's row", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "pro");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const body = new FormData();
    body.append("requiresFeedback", "true");
    body.append(
      "file",
      new Blob([new Uint8Array(minimalPdf())], { type: "application/pdf" }),
      "Brief.pdf",
    );
    const upload = await owner.agent.request("POST", `/api/clients/${client.id}/upload`, { body });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    await client.agent.post(`/api/clients/${client.id}/messages`, { content: "Looking at it now" });

    const page = await openPage(browser, server.url, owner.agent, { viewport: DESKTOP });
    await page.goto("/");
    const row = page
      .getByRole("navigation", { name: "Clients" })
      .getByRole("link", { name: /Carla Client/ });
    for (const text of ["Awaiting reply", "1 file to approve"]) {
      const badge = row.getByText(text, { exact: true });
      await badge.waitFor();
      // Its whole text is drawn, and inside the row the list shows.
      const fits = await badge.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const list = element.closest(".client-list")!.getBoundingClientRect();
        return (
          element.scrollWidth <= element.clientWidth &&
          box.left >= list.left &&
          box.right <= list.right
        );
      });
      expect(fits, text).toBe(true);
    }
    await keepScreenshot(page, "client-row-badges");
  });
});
