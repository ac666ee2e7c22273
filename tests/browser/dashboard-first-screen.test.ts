import type { Browser, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addClient, addJoinedClient, type JoinedClient, setTier } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { expectPath, keepScreenshot, sessionOf } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

const PHONE = { width: 375, height: 667 };
const DESKTOP = { width: 1280, height: 800 };
const NEWEST = "Message 20 of the draft review";

/**
 * The owner's first screen (the client list and the open conversation) takes one API request,
 * as the portal's does: GET /api/dashboard[?client={id}], named by index.html's Link preload
 * and taken by the dashboard's bootstrap; the pages render from what it seeded (no /api/user,
 * /api/clients, plan, billing or messages requests one after another).
 */
describe.skipIf(!browserAvailable)("the dashboard's first screen", () => {
  let server: TestServer;
  let browser: Browser;
  let owner: SignedInOwner;
  let client: JoinedClient;
  let otherClient: JoinedClient;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "pro");
    client = await addJoinedClient(server, owner, { name: "Carla Client" });
    await addClient(owner, { name: "Pete Pending" });
    for (let i = 1; i <= 20; i += 1) {
      const agent = i % 2 ? client.agent : owner.agent;
      const sent = await agent.post(`/api/clients/${client.id}/messages`, {
        content: `Message ${i} of the draft review`,
      });
      expect(sent.status).toBe(201);
    }
    const otherOwner = await signUpOwner(server, "Oscar Other");
    otherClient = await addJoinedClient(server, otherOwner, { name: "Dora Other" });
    expect(
      (
        await otherOwner.agent.post(`/api/clients/${otherClient.id}/messages`, {
          content: "Only for Dora",
        })
      ).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function ownerPage(
    viewport: { width: number; height: number },
    signedIn = true,
  ): Promise<Page> {
    const phone = viewport.width < 768;
    const context = await browser.newContext({
      baseURL: server.url,
      viewport,
      ...(phone && { isMobile: true, hasTouch: true }),
    });
    if (signedIn)
      await context.addCookies([{ name: "sid", value: sessionOf(owner.agent), url: server.url }]);
    return context.newPage();
  }

  /** Every request to /api/ from now on, as "GET /api/path?query". */
  function apiRequests(page: Page): string[] {
    const seen: string[] = [];
    page.on("request", (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/api/"))
        seen.push(`${request.method()} ${url.pathname}${url.search}`);
    });
    return seen;
  }

  /**
   * Notes in the page (its own clock) the moment every one of `texts` is first in the page.
   * requestsBeforeShown then names the /api/ requests the page had started by then (Resource
   * Timing: those answered since count too), i.e. what the first screen asked for.
   */
  async function noteWhenShown(page: Page, texts: string[]): Promise<void> {
    await page.addInitScript((wanted) => {
      const w = window as unknown as { __shownAt?: number };
      const observer = new MutationObserver(() => {
        const text = document.body?.textContent ?? "";
        if (w.__shownAt === undefined && wanted.every((part) => text.includes(part))) {
          w.__shownAt = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    }, texts);
  }
  async function requestsBeforeShown(page: Page): Promise<string[]> {
    await expect
      .poll(() => page.evaluate(() => (window as { __shownAt?: number }).__shownAt))
      .toBeDefined();
    // Requests started before then and still under way have their entries once answered.
    await page.waitForLoadState("networkidle");
    return page.evaluate(() => {
      const shownAt = (window as { __shownAt?: number }).__shownAt ?? 0;
      return performance
        .getEntriesByType("resource")
        .filter((entry) => entry.startTime <= shownAt)
        .map((entry) => new URL(entry.name))
        .filter((url) => url.pathname.startsWith("/api/"))
        .map((url) => `${url.pathname}${url.search}`);
    });
  }

  /** Whether `text`'s element lies inside the viewport (not only in the page). */
  const onScreen = (page: Page, text: string) =>
    page
      .getByText(text, { exact: true })
      .evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
      })
      .catch(() => false);

  it("/?client={id} shows the client list and the conversation after exactly one API request", async () => {
    const page = await ownerPage(DESKTOP);
    const requests = apiRequests(page);
    await noteWhenShown(page, ["Carla Client", "Pete Pending", NEWEST]);
    await page.goto(`/?client=${client.id}`);
    await expect.poll(() => onScreen(page, NEWEST)).toBe(true);
    const list = page.getByRole("navigation", { name: "Clients" });
    await list.getByText("Carla Client").waitFor();
    await list.getByText("Pete Pending").waitFor();
    expect(await requestsBeforeShown(page)).toEqual([`/api/dashboard?client=${client.id}`]);
    // The plan box and the header come from the same answer.
    await page.getByText("Pro plan").waitFor();
    await page.getByRole("heading", { name: "Carla Client" }).waitFor();
    await keepScreenshot(page, "dashboard-first-screen");
    // The page works from the seeded data as from its own: sending.
    const composer = page.getByRole("textbox", { name: "Message" });
    await composer.fill("Looks good, sending the next draft");
    await composer.press("Enter");
    await expect
      .poll(
        async () =>
          (await owner.agent.get(`/api/clients/${client.id}/messages`)).body.at(-1).content,
      )
      .toBe("Looks good, sending the next draft");
    // What the answer carried was never asked for again (the list and the messages may be,
    // after reading and by the websocket's catch-up).
    for (const seeded of [
      "GET /api/user",
      "GET /api/billing-mode",
      "GET /api/user/account-tier",
      "GET /api/subscription/status",
    ]) {
      expect(requests).not.toContain(seeded);
    }
    expect(requests.filter((r) => r.startsWith("GET /api/dashboard"))).toEqual([
      `GET /api/dashboard?client=${client.id}`,
    ]);
    await page.context().close();
  });

  it("on a phone, the conversation's newest message is on screen after exactly one API request", async () => {
    const page = await ownerPage(PHONE);
    await noteWhenShown(page, [NEWEST]);
    await page.goto(`/?client=${client.id}`);
    await expect.poll(() => onScreen(page, NEWEST)).toBe(true);
    expect(await requestsBeforeShown(page)).toEqual([`/api/dashboard?client=${client.id}`]);
    await keepScreenshot(page, "dashboard-first-screen");
    await page.context().close();
  });

  it("/ shows the client list after one API request, and a client opens from it", async () => {
    const page = await ownerPage(DESKTOP);
    await noteWhenShown(page, ["Carla Client", "Pete Pending"]);
    await page.goto("/");
    const list = page.getByRole("navigation", { name: "Clients" });
    await list.getByText("Pete Pending").waitFor();
    expect(await requestsBeforeShown(page)).toEqual(["/api/dashboard"]);
    await list.getByText("Carla Client").click();
    await expect.poll(() => onScreen(page, NEWEST)).toBe(true);
    await page.context().close();
  });

  it("another owner's client id opens no conversation and shows none of its data", async () => {
    const page = await ownerPage(DESKTOP);
    const requests = apiRequests(page);
    await page.goto(`/?client=${otherClient.id}`);
    await page.getByRole("heading", { name: "Client not found" }).waitFor();
    await page.getByRole("navigation", { name: "Clients" }).getByText("Carla Client").waitFor();
    expect(await page.textContent("body")).not.toMatch(/Dora|Only for Dora/);
    expect(requests[0]).toBe(`GET /api/dashboard?client=${otherClient.id}`);
    await page.context().close();
  });

  it("signed out, / goes to the sign-in page", async () => {
    const page = await ownerPage(DESKTOP, false);
    const requests = apiRequests(page);
    await page.goto(`/?client=${client.id}`);
    await expectPath(page, "/auth");
    // The sign-in page, loaded when it was needed.
    await page.getByRole("heading", { name: "Welcome back" }).waitFor();
    expect(requests[0]).toBe(`GET /api/dashboard?client=${client.id}`);
    expect(requests).not.toContain("GET /api/user");
    await page.context().close();
  });
});
