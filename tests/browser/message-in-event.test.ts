import { randomUUID } from "node:crypto";
import type { Browser, Page, WebSocket } from "playwright-core";
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

  /**
   * Notes, in the page, the body of every answer to GET /api/clients/{id}/messages before the
   * app reads it (a message that shows before any answer carried it came from its event), how
   * many are being asked, and whether the socket is open.
   */
  const watchTheConversation = () => {
    const w = window as unknown as { __answers: string[]; __asking: number; __open: boolean };
    w.__answers = [];
    w.__asking = 0;
    w.__open = false;
    const fetchAnswer = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), location.href);
      if (!/^\/api\/clients\/[^/]+\/messages$/.test(url.pathname)) return fetchAnswer(input, init);
      w.__asking += 1;
      try {
        const answer = await fetchAnswer(input, init);
        w.__answers.push(await answer.clone().text());
        return answer;
      } finally {
        w.__asking -= 1;
      }
    };
    const Socket = window.WebSocket;
    window.WebSocket = class extends Socket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        this.addEventListener("open", () => {
          w.__open = true;
        });
      }
    };
  };

  /**
   * Resolves once the page is quiet: its socket open and no fetch of the conversation (the
   * socket's catch-up, a read receipt's) unanswered, since one answered later could carry what
   * the test writes next. Polled each frame: a fetch an event starts has begun by the next one.
   */
  const quiet = (page: Page) =>
    page.waitForFunction(
      () => {
        const w = window as unknown as { __asking: number; __open: boolean };
        return w.__open && w.__asking === 0;
      },
      undefined,
      { polling: "raf" },
    );

  /** The next read receipt the page's socket brings. */
  function nextReadReceipt(page: Page) {
    return new Promise<void>((resolve) => {
      const listen = (ws: WebSocket) =>
        ws.on("framereceived", function onFrame({ payload }) {
          if (!String(payload).includes('"messages_read"')) return;
          ws.off("framereceived", onFrame);
          resolve();
        });
      sockets.get(page)?.forEach(listen);
    });
  }
  const sockets = new Map<Page, WebSocket[]>();

  /**
   * Opens `path` on a conversation whose newest message is the viewer's own (so nothing is
   * marked read) and waits until `shown` is there and the page is quiet.
   */
  async function openLive(agent: Parameters<typeof openPage>[2], path: string, shown: string) {
    const page = await openPage(browser, server.url, agent, {
      viewport: { width: 375, height: 740 },
      defaultTimeout: 10_000,
    });
    await page.addInitScript(watchTheConversation);
    sockets.set(page, []);
    page.on("websocket", (ws) => sockets.get(page)?.push(ws));
    await page.goto(path);
    await page.getByRole("log").getByText(shown).waitFor();
    await quiet(page);
    return page;
  }

  /** How many of the conversation's answers the page has had so far. */
  const answersSoFar = (page: Page) =>
    page.evaluate(() => (window as unknown as { __answers: string[] }).__answers.length);

  /**
   * Resolves, once `text` shows in the page, with how the page had it at that moment: how many
   * of the conversation's answers had arrived, and whether any of them carried `text`.
   */
  async function whenShown(page: Page, text: string) {
    await page.evaluate((wanted) => {
      const w = window as unknown as {
        __answers: string[];
        __whenShown?: { answers: number; fetched: boolean };
      };
      w.__whenShown = undefined;
      const observer = new MutationObserver(() => {
        if (!document.querySelector('[role="log"]')?.textContent?.includes(wanted)) return;
        w.__whenShown = {
          answers: w.__answers.length,
          fetched: w.__answers.some((body) => body.includes(JSON.stringify(wanted))),
        };
        observer.disconnect();
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    }, text);
    return async () => {
      await page.getByRole("log").getByText(text).waitFor();
      return page.evaluate(
        () =>
          (window as unknown as { __whenShown: { answers: number; fetched: boolean } }).__whenShown,
      );
    };
  }

  it("shows the owner's message in the portal without a request, and fetches after a gap", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const path = `/api/clients/${client.id}/messages`;
    await owner.agent.post(path, { content: "Welcome aboard" });
    await client.agent.post(path, { content: "Thank you" });
    const page = await openLive(client.agent, `/client/${client.id}`, "Thank you");
    const shown = await whenShown(page, "Are you free tomorrow?");
    const read = nextReadReceipt(page);
    await owner.agent.post(path, { content: "Are you free tomorrow?" });
    expect((await shown()).fetched).toBe(false);
    // Reading it makes the page fetch the conversation again: let that settle first.
    await read;
    await quiet(page);

    // A message whose event never reached the page (written without one), then another.
    const ownerRow = await server.db("users").where("email", owner.email).first("id");
    await server.db("messages").insert({
      id: randomUUID(),
      clientId: client.id,
      senderId: ownerRow.id,
      senderRole: "owner",
      content: "The one you missed",
    });
    const afterGap = await answersSoFar(page);
    const shownAfterGap = await whenShown(page, "And the next one");
    await owner.agent.post(path, { content: "And the next one" });
    const gapFilled = await shownAfterGap();
    expect(gapFilled.fetched).toBe(true);
    expect(gapFilled.answers).toBeGreaterThan(afterGap);
    await page.getByRole("log").getByText("The one you missed").waitFor();
  });

  it("shows the client's message on the owner's dashboard without fetching the conversation", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const path = `/api/clients/${client.id}/messages`;
    await client.agent.post(path, { content: "Hello Olivia" });
    await owner.agent.post(path, { content: "Hello Carla" });
    const page = await openLive(owner.agent, `/?client=${client.id}`, "Hello Carla");
    const shown = await whenShown(page, "Here is my reply");
    await client.agent.post(path, { content: "Here is my reply" });
    expect((await shown()).fetched).toBe(false);
  });
});
