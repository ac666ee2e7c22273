import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

/**
 * A new message's event carries the message as its recipient sees it: the other side's open
 * page shows it without asking the API for the conversation. When the event does not follow
 * what the page has (one was missed), the page fetches the conversation and shows both.
 */
describe.skipIf(!browserAvailable)("a new message shown from its event", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens `path` and waits until its socket is open and its catch-up fetch answered. */
  async function openLive(agent: Parameters<typeof openPage>[2], path: string, shown: string) {
    const page = await openPage(browser, server.url, agent, {
      viewport: { width: 375, height: 740 },
      defaultTimeout: 10_000,
    });
    const socket = page.waitForEvent("websocket", {
      predicate: (ws) => new URL(ws.url()).pathname === "/ws",
    });
    await page.goto(path);
    await page.getByRole("log").getByText(shown).waitFor();
    await socket;
    await page.waitForLoadState("networkidle");
    return page;
  }

  /** Answers to GET /api/clients/{clientId}/messages the page has had so far. */
  const fetchesAnswered = (page: Page, clientId: string) =>
    page.evaluate(
      (wanted) =>
        performance
          .getEntriesByType("resource")
          .filter((entry) => new URL(entry.name).pathname === wanted).length,
      `/api/clients/${clientId}/messages`,
    );

  /**
   * Resolves, once `text` shows in the page, with how many of the conversation's fetches had
   * been answered at that moment (noted in the page itself: reading the message marks it read,
   * and the read receipt that comes back makes the page fetch again a moment later).
   */
  async function fetchesWhenShown(page: Page, clientId: string, text: string) {
    await page.evaluate(
      ([wanted, path]) => {
        const w = window as unknown as { __fetchesWhenShown?: number };
        w.__fetchesWhenShown = undefined;
        const observer = new MutationObserver(() => {
          if (!document.querySelector('[role="log"]')?.textContent?.includes(wanted!)) return;
          w.__fetchesWhenShown = performance
            .getEntriesByType("resource")
            .filter((entry) => new URL(entry.name).pathname === path).length;
          observer.disconnect();
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true });
      },
      [text, `/api/clients/${clientId}/messages`],
    );
    return async () => {
      await page.getByRole("log").getByText(text).waitFor();
      return page.evaluate(
        () => (window as unknown as { __fetchesWhenShown?: number }).__fetchesWhenShown,
      );
    };
  }

  it("shows the owner's message in the portal without a request, and fetches after a gap", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const path = `/api/clients/${client.id}/messages`;
    await owner.agent.post(path, { content: "Welcome aboard" });
    const page = await openLive(client.agent, `/client/${client.id}`, "Welcome aboard");
    const before = await fetchesAnswered(page, client.id);
    const shown = await fetchesWhenShown(page, client.id, "Are you free tomorrow?");
    await owner.agent.post(path, { content: "Are you free tomorrow?" });
    expect(await shown()).toBe(before);

    // A message whose event never reached the page (written without one), then another.
    const ownerRow = await server.db("users").where("email", owner.email).first("id");
    await server.db("messages").insert({
      id: randomUUID(),
      clientId: client.id,
      senderId: ownerRow.id,
      senderRole: "owner",
      content: "The one you missed",
    });
    const afterGap = await fetchesAnswered(page, client.id);
    const shownAfterGap = await fetchesWhenShown(page, client.id, "And the next one");
    await owner.agent.post(path, { content: "And the next one" });
    expect(await shownAfterGap()).toBeGreaterThan(afterGap);
    await page.getByRole("log").getByText("The one you missed").waitFor();
  });

  it("shows the client's message on the owner's dashboard without fetching the conversation", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const path = `/api/clients/${client.id}/messages`;
    await client.agent.post(path, { content: "Hello Olivia" });
    const page = await openLive(owner.agent, `/?client=${client.id}`, "Hello Olivia");
    const before = await fetchesAnswered(page, client.id);
    const shown = await fetchesWhenShown(page, client.id, "Here is my reply");
    await client.agent.post(path, { content: "Here is my reply" });
    expect(await shown()).toBe(before);
  });
});
