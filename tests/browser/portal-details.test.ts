import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, type JoinedClient } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { keepScreenshot, sessionOf } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

const DESKTOP = { width: 1280, height: 800 };
const PHONES = [
  { width: 375, height: 667 },
  { width: 390, height: 844 },
];

/**
 * The client portal: its footer covers nothing on a phone, the Conversation tab says when a
 * message came while another tab was open, the owner has one name throughout, and a message's
 * text is laid out on its own (its direction, its overrides kept inside it).
 */
describe.skipIf(!browserAvailable)("the client portal's details", () => {
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

  /** The client's portal in a fresh browser; a phone-sized one is a touch phone. */
  async function portal(client: JoinedClient, viewport = DESKTOP): Promise<Page> {
    const phone = viewport.width < 768;
    const context = await browser.newContext({
      baseURL: server.url,
      viewport,
      ...(phone && { isMobile: true, hasTouch: true }),
    });
    context.setDefaultTimeout(10_000);
    await context.addCookies([{ name: "sid", value: sessionOf(client.agent), url: server.url }]);
    const page = await context.newPage();
    await page.goto(`/client/${client.id}`);
    await page.getByRole("tab", { name: "Conversation" }).waitFor();
    return page;
  }

  async function studioOwner(): Promise<{ owner: SignedInOwner; client: JoinedClient }> {
    const owner = await signUpOwner(server, "Olivia Owner");
    const profile = await owner.agent.patch("/api/user/profile", {
      fullName: "Olivia Owner",
      companyName: "Studio Olivia",
    });
    expect(profile.status, JSON.stringify(profile.body)).toBe(200);
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    return { owner, client };
  }

  /** Whether the point is drawn by `locator`'s element (nothing lies over it there). */
  const drawnBy = (locator: Locator, x: number, y: number) =>
    locator.evaluate(
      (element, [px, py]) => {
        const top = document.elementFromPoint(px!, py!);
        return top !== null && element.contains(top);
      },
      [x, y],
    );

  it("on a phone, the Powered by footer never covers Turn on notifications", async () => {
    const { client } = await studioOwner();
    for (const viewport of PHONES) {
      const page = await portal(client, viewport);
      await page.getByRole("tab", { name: "Settings" }).click();
      const turnOn = page.getByRole("button", { name: "Turn on notifications" });
      await turnOn.waitFor();
      const footer = page.getByText("Powered by", { exact: false });
      // Where a person sees it first, and scrolled to the end of the tab: nothing lies over
      // the button's top and bottom edges, and the footer comes after it.
      for (const scrolled of [false, true]) {
        if (scrolled)
          await page
            .getByRole("tabpanel")
            .evaluate((panel) => panel.scrollTo(0, panel.scrollHeight));
        const box = (await turnOn.boundingBox())!;
        if (box.y + box.height <= viewport.height) {
          const middle = box.x + box.width / 2;
          for (const [x, y] of [
            [middle, box.y + 3],
            [middle, box.y + box.height - 3],
          ] as const) {
            expect(await drawnBy(turnOn, x, y), `${viewport.width}px, (${x}, ${y})`).toBe(true);
          }
        }
        const footerBox = (await footer.boundingBox())!;
        expect(footerBox.y).toBeGreaterThanOrEqual(box.y + box.height);
      }
      // The first view shows the button in full on both phones.
      await page.getByRole("tabpanel").evaluate((panel) => panel.scrollTo(0, 0));
      const first = (await turnOn.boundingBox())!;
      expect(first.y + first.height).toBeLessThanOrEqual(viewport.height);
      await keepScreenshot(page, "portal-settings-phone");
      await page.context().close();
    }
  }, 60_000);

  it("marks the Conversation tab when a message arrives while Settings or Attachments is open", async () => {
    const { owner, client } = await studioOwner();
    const page = await portal(client, PHONES[1]);
    const conversationTab = page.getByRole("tab", { name: /^Conversation/ });
    for (const other of ["Settings", "Attachments"]) {
      await page.getByRole("tab", { name: other }).click();
      await owner.agent.post(`/api/clients/${client.id}/messages`, {
        content: `While on ${other}`,
      });
      await expect.poll(() => conversationTab.textContent()).toBe("Conversation1 unread");
      await keepScreenshot(page, `portal-tab-cue-${other.toLowerCase()}`);
      // Back on the conversation, the message is read and the mark goes.
      await conversationTab.click();
      await page.getByRole("log").getByText(`While on ${other}`).waitFor();
      await expect.poll(() => conversationTab.textContent()).toBe("Conversation");
    }
  });

  it("names the owner one way throughout: the company name, when there is one", async () => {
    const { owner, client } = await studioOwner();
    await owner.agent.post(`/api/clients/${client.id}/messages`, { content: "Welcome aboard" });
    const page = await portal(client);
    const header = page.locator(".portal-header");
    await header.getByText("Your contact").waitFor();
    const log = page.getByRole("log");
    await log.getByText("Welcome aboard").waitFor();

    await header.getByText("Studio Olivia", { exact: true }).waitFor();
    expect(await page.getByRole("textbox", { name: "Message" }).getAttribute("placeholder")).toBe(
      "Message Studio Olivia",
    );
    // The owner's message carries the same name, after its writer's (issue 26: each message
    // names its author).
    await log.locator(".message__sender").getByText("Studio Olivia", { exact: true }).waitFor();
    await log.locator(".message__author").getByText("Olivia Owner", { exact: true }).waitFor();
    // And so does a search result.
    await page.getByRole("button", { name: "Search messages" }).click();
    const search = page.getByRole("dialog");
    await search.getByRole("combobox", { name: "Search messages" }).fill("aboard");
    await search.getByText("Studio Olivia", { exact: true }).waitFor();
    await page.keyboard.press("Escape");
    // Nowhere else does the portal use the owner's own name.
    expect(await page.getByText("Olivia Owner").count()).toBe(1);
    await keepScreenshot(page, "portal-owner-name");

    // An owner with no company: their full name, the same everywhere.
    const solo = await signUpOwner(server, "Sam Solo");
    const soloClient = await addJoinedClient(server, solo, { name: "Carla Client" });
    const soloPage = await portal(soloClient);
    await soloPage.locator(".portal-header").getByText("Sam Solo", { exact: true }).waitFor();
    await soloPage.getByText("Say hello to Sam Solo. Messages you send appear here.").waitFor();
    expect(
      await soloPage.getByRole("textbox", { name: "Message" }).getAttribute("placeholder"),
    ).toBe("Message Sam Solo");
    // Their message names them once: the writer is the side.
    await solo.agent.post(`/api/clients/${soloClient.id}/messages`, { content: "Hi from Sam" });
    const soloMessage = soloPage
      .getByRole("log")
      .getByRole("listitem")
      .filter({ hasText: "Hi from Sam" });
    await soloMessage.waitFor();
    expect(await soloMessage.locator(".message__sender").textContent()).toBe("Sam Solo");
  });

  it("lays each message out on its own: its overrides stay in it, right-to-left text reads right to left", async () => {
    const { client } = await studioOwner();
    const hebrew = "\u05e9\u05dc\u05d5\u05dd";
    // Message text keeps the direction controls (names and file names lose them).
    await client.agent.post(`/api/clients/${client.id}/messages`, {
      content: "Pay to \u202Eeno siht",
    });
    await client.agent.post(`/api/clients/${client.id}/messages`, { content: "Next one reads on" });
    await client.agent.post(`/api/clients/${client.id}/messages`, {
      content: `${hebrew} and thanks`,
    });

    const page = await portal(client);
    const log = page.getByRole("log");
    const bubble = (text: string) => log.locator(".message__bubble", { hasText: text });
    await bubble("and thanks").waitFor();
    for (const text of ["Pay to", "Next one", "and thanks"]) {
      expect(await bubble(text).getAttribute("dir"), text).toBe("auto");
      expect(await bubble(text).evaluate((element) => getComputedStyle(element).unicodeBidi)).toBe(
        "isolate",
      );
    }

    /** Where the first occurrence of `word` starts, horizontally, inside `locator`'s element. */
    const xOf = (locator: Locator, word: string) =>
      locator.evaluate((element, wanted) => {
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const at = node.textContent!.indexOf(wanted);
          if (at === -1) continue;
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + wanted.length);
          return range.getBoundingClientRect().left;
        }
        throw new Error(`${wanted} not found`);
      }, word);

    // What follows the override reads left to right.
    expect(await xOf(bubble("Next one"), "Next")).toBeLessThan(
      await xOf(bubble("Next one"), "reads"),
    );
    // A message that starts in Hebrew is a right-to-left paragraph: the Hebrew word comes first,
    // from the right.
    expect(await xOf(bubble("and thanks"), hebrew)).toBeGreaterThan(
      await xOf(bubble("and thanks"), "thanks"),
    );
    await keepScreenshot(page, "portal-bidi");
  });
});
