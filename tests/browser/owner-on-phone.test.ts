import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, type JoinedClient, setTier } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { expectPath, expectToast, sessionOf } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

/** Set SCREENSHOT_DIR to keep screenshots of the phone and desktop screens. */
const screenshotDir = process.env.SCREENSHOT_DIR;

const PHONES = [
  { width: 375, height: 667 },
  { width: 390, height: 844 },
];
const DESKTOP = { width: 1280, height: 800 };
/** More than one screen of messages on any phone. */
const MESSAGE_COUNT = 42;

type Viewport = { width: number; height: number };

describe.skipIf(!browserAvailable)("the owner on a phone", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A signed-in page at `viewport`; a phone-sized one is a touch phone. */
  async function pageAs(agent: { cookieHeader: string }, viewport: Viewport): Promise<Page> {
    const phone = viewport.width < 768;
    const context = await browser.newContext({
      baseURL: server.url,
      viewport,
      ...(phone && { isMobile: true, hasTouch: true }),
    });
    context.setDefaultTimeout(15_000);
    await context.addCookies([{ name: "sid", value: sessionOf(agent), url: server.url }]);
    return context.newPage();
  }

  async function shot(page: Page, name: string) {
    if (!screenshotDir) return;
    const { width, height } = page.viewportSize()!;
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${width}x${height}.png`) });
  }

  const composer = (page: Page) => page.getByRole("textbox", { name: "Message" });
  const sendButton = (page: Page) => page.getByRole("button", { name: "Send message" });
  const log = (page: Page) => page.getByRole("log");

  /** `count` messages, the owner and the client taking turns; the last one is the client's. */
  async function seedConversation(owner: SignedInOwner, client: JoinedClient, count: number) {
    for (let index = 1; index <= count; index += 1) {
      const sender = (count - index) % 2 === 0 ? client.agent : owner.agent;
      const answer = await sender.post(`/api/clients/${client.id}/messages`, {
        content: `Message ${index} about the spring campaign`,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    }
  }

  async function ownerWithLongConversation() {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    await seedConversation(owner, client, MESSAGE_COUNT);
    return { owner, client };
  }

  /** The element's box lies wholly inside the window. */
  async function expectInViewport(page: Page, locator: Locator) {
    const { width, height } = page.viewportSize()!;
    await expect
      .poll(async () => {
        const box = await locator.boundingBox();
        return (
          box !== null &&
          box.x >= 0 &&
          box.y >= 0 &&
          box.x + box.width <= width + 0.5 &&
          box.y + box.height <= height + 0.5
        );
      })
      .toBe(true);
  }

  /** The newest message shows in the list's visible part (not under the composer). */
  async function expectNewestShown(page: Page) {
    await expectInViewport(page, newest(page));
    await expect
      .poll(async () => {
        const message = (await newest(page).boundingBox())!;
        const list = (await log(page).boundingBox())!;
        return message.y >= list.y && message.y + message.height <= list.y + list.height + 0.5;
      })
      .toBe(true);
  }

  /** The page itself does not scroll; the message list does (it holds more than a screen). */
  async function expectOnlyTheListScrolls(page: Page) {
    const pageScroll = await page.evaluate(() => {
      const root = document.scrollingElement!;
      return { scrollHeight: root.scrollHeight, clientHeight: root.clientHeight };
    });
    expect(pageScroll.scrollHeight).toBeLessThanOrEqual(pageScroll.clientHeight);
    const listScroll = await log(page).evaluate((area) => ({
      scrollHeight: area.scrollHeight,
      clientHeight: area.clientHeight,
    }));
    expect(listScroll.scrollHeight).toBeGreaterThan(listScroll.clientHeight);
  }

  const newest = (page: Page) =>
    log(page).getByText(`Message ${MESSAGE_COUNT} about the spring campaign`, { exact: true });

  function intersects(
    a: { x: number; y: number; width: number; height: number },
    b: { x: number; y: number; width: number; height: number },
  ) {
    return (
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    );
  }

  /**
   * A refused send raises a notice ("Failed to send message") while the composer is on screen:
   * it covers neither the composer nor the Send button, and its own Dismiss button works.
   */
  async function expectNoticeClearOfComposer(page: Page) {
    await page.route("**/api/clients/*/messages", (route) =>
      route.request().method() === "POST"
        ? route.fulfill({
            status: 400,
            contentType: "application/json",
            body: JSON.stringify({ message: "This conversation cannot take new messages" }),
          })
        : route.continue(),
    );
    await composer(page).fill("One more thing");
    await composer(page).press("Enter");
    await expectToast(page, "Failed to send message");
    await expectToast(page, "This conversation cannot take new messages");
    // The entry animation has ended: the notice is where it stays.
    await expect
      .poll(() => page.locator(".toast").evaluate((toast) => toast.getAnimations().length))
      .toBe(0);
    await expectInViewport(page, composer(page));
    const toastBox = (await page.locator(".toast").boundingBox())!;
    const composerBox = (await page.locator(".composer").boundingBox())!;
    const sendBox = (await sendButton(page).boundingBox())!;
    expect(intersects(toastBox, composerBox)).toBe(false);
    expect(intersects(toastBox, sendBox)).toBe(false);
    // The failed text is back in the field, ready to send again.
    expect(await composer(page).inputValue()).toBe("One more thing");
    await shot(page, "owner-toast");
    await page.getByRole("button", { name: "Dismiss notification" }).click();
    await expect.poll(() => page.locator(".toast").count()).toBe(0);
    await page.unroute("**/api/clients/*/messages");
  }

  for (const viewport of PHONES) {
    const size = `${viewport.width}x${viewport.height}`;

    it(`${size}: a long conversation opens at the newest message with the composer in view; Back returns to the list`, async () => {
      const { owner, client } = await ownerWithLongConversation();
      const page = await pageAs(owner.agent, viewport);
      await page.goto("/");
      const listItem = page.getByRole("link", { name: /Carla Client/ });
      await listItem.waitFor();
      await shot(page, "owner-client-list");

      // Opened from the list: the conversation takes the screen, at its newest message.
      await listItem.click();
      await newest(page).waitFor();
      await expectNewestShown(page);
      await expectInViewport(page, composer(page));
      await expectInViewport(page, sendButton(page));
      await expectOnlyTheListScrolls(page);
      // On a phone the keyboard would cover the chat: opening does not put the cursor in the field.
      expect(await composer(page).evaluate((field) => document.activeElement === field)).toBe(
        false,
      );
      await shot(page, "owner-conversation");

      // The header's Back returns to the list, and so does the browser's Back.
      await page.getByRole("link", { name: "Back to clients" }).click();
      await expectPath(page, "/");
      await expect.poll(() => new URL(page.url()).search).toBe("");
      await listItem.waitFor();
      expect(await log(page).count()).toBe(0);
      // The header's Back stepped back in history: the browser's Forward reopens the conversation.
      await page.goForward();
      await newest(page).waitFor();
      await page.goBack();
      await listItem.waitFor();
      expect(await log(page).count()).toBe(0);

      await listItem.click();
      await newest(page).waitFor();
      await page.goBack();
      await listItem.waitFor();
      expect(await log(page).count()).toBe(0);

      // A notice never covers the composer or its Send button.
      await page.goto(`/?client=${client.id}`);
      await newest(page).waitFor();
      await expectNoticeClearOfComposer(page);
      await page.context().close();
    }, 90_000);

    it(`${size}: the client portal keeps the newest message and the composer on one screen`, async () => {
      const { client } = await ownerWithLongConversation();
      const page = await pageAs(client.agent, viewport);
      await page.goto(`/client/${client.id}`);
      await newest(page).waitFor();
      await expectNewestShown(page);
      await expectInViewport(page, composer(page));
      await expectInViewport(page, sendButton(page));
      await expectOnlyTheListScrolls(page);
      await shot(page, "portal-conversation");
      await page.context().close();
    }, 60_000);
  }

  it("the tab title carries the unread count across conversations, live, and drops when read", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "pro");
    const carla = await addJoinedClient(server, owner, { name: "Carla Client" });
    const dana = await addJoinedClient(server, owner, { name: "Dana Doe" });
    const fromClient = (client: JoinedClient, content: string) =>
      client.agent.post(`/api/clients/${client.id}/messages`, { content });
    await fromClient(carla, "Hi! The brief is attached.");
    await fromClient(carla, "Can we talk tomorrow?");
    await fromClient(dana, "Invoice received, thanks.");

    const page = await pageAs(owner.agent, PHONES[0]!);
    await page.goto("/");
    await expect.poll(() => page.title()).toBe("(3) ClientDesk");

    // A new message from a client reaches the open page without a reload.
    expect((await fromClient(dana, "One more question about the invoice")).status).toBe(201);
    await expect.poll(() => page.title()).toBe("(4) ClientDesk");

    // Reading one conversation takes its messages off the count, reading the other clears it.
    await page.getByRole("link", { name: /Dana Doe/ }).click();
    await log(page).getByText("One more question about the invoice").waitFor();
    await expect.poll(() => page.title()).toBe("(2) ClientDesk");
    await page.getByRole("link", { name: "Back to clients" }).click();
    await page.getByRole("link", { name: /Carla Client/ }).click();
    await log(page).getByText("Can we talk tomorrow?").waitFor();
    await expect.poll(() => page.title()).toBe("ClientDesk");

    // The client's portal counts the client's own unread messages the same way.
    const portal = await pageAs(carla.agent, PHONES[0]!);
    await portal.goto(`/client/${carla.id}?tab=settings`);
    await portal.getByRole("tab", { name: "Settings", selected: true }).waitFor();
    await expect.poll(() => portal.title()).toBe("ClientDesk");
    const fromOwner = await owner.agent.post(`/api/clients/${carla.id}/messages`, {
      content: "Tomorrow at 10 works.",
    });
    expect(fromOwner.status).toBe(201);
    await expect.poll(() => portal.title()).toBe("(1) ClientDesk");
    await portal.getByRole("tab", { name: "Conversation" }).click();
    await log(portal).getByText("Tomorrow at 10 works.").waitFor();
    await expect.poll(() => portal.title()).toBe("ClientDesk");
    await page.context().close();
    await portal.context().close();
  }, 60_000);

  it("on a wide screen opening a conversation puts the cursor in the composer; on a phone it does not", async () => {
    const { owner, client } = await ownerWithLongConversation();
    const focusedField = (page: Page) =>
      composer(page).evaluate((field) => document.activeElement === field);

    const desktop = await pageAs(owner.agent, DESKTOP);
    await desktop.goto("/");
    await desktop.getByRole("link", { name: /Carla Client/ }).click();
    await newest(desktop).waitFor();
    await expect.poll(() => focusedField(desktop)).toBe(true);
    // Typing goes straight into the message.
    await desktop.keyboard.type("Typed without a click");
    expect(await composer(desktop).inputValue()).toBe("Typed without a click");
    await expectOnlyTheListScrolls(desktop);
    await shot(desktop, "owner-conversation");
    await composer(desktop).fill("");
    await expectNoticeClearOfComposer(desktop);
    // A conversation opened by its address gets the cursor too.
    await desktop.goto(`/?client=${client.id}`);
    await newest(desktop).waitFor();
    await expect.poll(() => focusedField(desktop)).toBe(true);
    await desktop.context().close();

    const phone = await pageAs(owner.agent, PHONES[0]!);
    await phone.goto(`/?client=${client.id}`);
    await newest(phone).waitFor();
    await expectInViewport(phone, composer(phone));
    expect(await focusedField(phone)).toBe(false);
    await phone.context().close();
  }, 60_000);
});
