import type { Browser, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addClient, addJoinedClient } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { sessionOf } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

const PHONE = { width: 375, height: 667 };
const SHOTS = "/tmp/shots-speed";

/**
 * The client portal's first screen on a phone takes one API request (GET /api/portal/{id},
 * named by the page's Link preload and taken by the portal's own fetch): no /api/user, then
 * the conversation, then its messages one after another. Through an invite link the portal
 * signs in first and then asks as before.
 */
describe.skipIf(!browserAvailable)("the client portal's first screen", () => {
  let server: TestServer;
  let browser: Browser;
  let owner: SignedInOwner;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    owner = await signUpOwner(server, "Olivia Owner");
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function phonePage(session?: { cookieHeader: string }): Promise<Page> {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
    });
    if (session)
      await context.addCookies([{ name: "sid", value: sessionOf(session), url: server.url }]);
    return context.newPage();
  }

  /** Every request to /api/ from now on. */
  function apiRequests(page: Page): Request[] {
    const seen: Request[] = [];
    page.on("request", (request: Request) => {
      if (new URL(request.url()).pathname.startsWith("/api/")) seen.push(request);
    });
    return seen;
  }
  const named = (requests: Request[]) =>
    requests.map((request) => `${request.method()} ${new URL(request.url()).pathname}`);

  /**
   * Notes in the page, the moment an element with `text` first appears, which /api/ requests
   * had been answered by then (the page's own Resource Timing entries: one clock, the page's, so
   * nothing drifts between the browser's and the test's). Those are what the first screen waited
   * for. (Once it shows, the opened websocket asks for the messages again, for what it may have
   * missed.)
   */
  async function noteWhenShown(page: Page, text: string): Promise<void> {
    await page.addInitScript((wanted) => {
      const w = window as unknown as { __answeredWhenShown?: string[] };
      const observer = new MutationObserver(() => {
        if (w.__answeredWhenShown === undefined && document.body?.textContent?.includes(wanted)) {
          w.__answeredWhenShown = performance
            .getEntriesByType("resource")
            .map((entry) => entry.name)
            .filter((name) => new URL(name).pathname.startsWith("/api/"));
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    }, text);
  }
  async function requestsBeforeShown(page: Page, requests: Request[]): Promise<string[]> {
    const answered = await page.evaluate(
      () => (window as unknown as { __answeredWhenShown?: string[] }).__answeredWhenShown,
    );
    expect(answered).toBeDefined();
    return named(requests.filter((request) => answered?.includes(request.url())));
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

  it("a signed-in client's conversation of 20 messages shows its newest after exactly one API request", async () => {
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    for (let i = 1; i <= 20; i += 1) {
      const agent = i % 2 ? owner.agent : client.agent;
      const sent = await agent.post(`/api/clients/${client.id}/messages`, {
        content: `Message ${i} of the draft review`,
      });
      expect(sent.status).toBe(201);
    }
    const page = await phonePage(client.agent);
    const requests = apiRequests(page);
    await noteWhenShown(page, "Message 20 of the draft review");
    await page.goto(`/client/${client.id}`);
    await expect.poll(() => onScreen(page, "Message 20 of the draft review")).toBe(true);
    expect(await requestsBeforeShown(page, requests)).toEqual([`GET /api/portal/${client.id}`]);
    // The page works from the seeded data as from its own: the header, the tabs, sending.
    await page.getByRole("tab", { name: "Conversation" }).waitFor();
    await page.screenshot({ path: `${SHOTS}/portal-first-screen-375.png` });
    const composer = page.getByRole("textbox", { name: "Message" });
    await composer.fill("Looks good to me");
    await composer.press("Enter");
    await expect.poll(() => onScreen(page, "Looks good to me")).toBe(true);
    // On screen at once (the outbox); stored once the server has answered.
    await expect
      .poll(
        async () =>
          (await client.agent.get(`/api/clients/${client.id}/messages`)).body.at(-1).content,
      )
      .toBe("Looks good to me");
    // Nothing but the websocket's catch-up asked for the first data again.
    expect(named(requests).filter((r) => r.startsWith("GET ") && !r.endsWith("/messages"))).toEqual(
      [`GET /api/portal/${client.id}`],
    );
    await page.context().close();
  });

  it("an invite link still signs the client in and opens the conversation at its newest message", async () => {
    const freshOwner = await signUpOwner(server, "Ida Inviter");
    const added = await addClient(freshOwner, { name: "Nina New" });
    for (const content of ["Welcome aboard", "Here is the contract to approve"]) {
      expect(
        (await freshOwner.agent.post(`/api/clients/${added.id}/messages`, { content })).status,
      ).toBe(201);
    }
    const page = await phonePage();
    await page.goto(`/invite/${added.inviteToken}`);
    await page.waitForURL(`**/client/${added.id}`);
    await expect.poll(() => onScreen(page, "Here is the contract to approve")).toBe(true);
    await page.screenshot({ path: `${SHOTS}/portal-after-invite-375.png` });
    // And once signed in, a reload takes the one-request path.
    const requests = apiRequests(page);
    await noteWhenShown(page, "Here is the contract to approve");
    await page.reload();
    await expect.poll(() => onScreen(page, "Here is the contract to approve")).toBe(true);
    expect(await requestsBeforeShown(page, requests)).toEqual([`GET /api/portal/${added.id}`]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${SHOTS}/portal-desktop.png` });
    await page.context().close();
  });
});
