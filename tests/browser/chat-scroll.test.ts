import type { Browser, Locator, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Message } from "../../server/models";
import { axeViolations, describeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

const PHONE = { width: 375, height: 740 };
/** Three pages of 50: the newest page opens, two older ones load on scrolling up. */
const HISTORY = 130;

/** Where a message is: its top relative to the log's visible top. */
function offsetOf(log: Locator, text: string): Promise<number> {
  return log.evaluate((area, wanted) => {
    const item = [...area.querySelectorAll<HTMLElement>("[data-message-id]")].find(
      (element) => element.querySelector(".message__bubble")?.textContent === wanted,
    );
    if (!item) throw new Error(`no message "${wanted}" in the log`);
    return item.getBoundingClientRect().top - area.getBoundingClientRect().top;
  }, text);
}

/** The text of the first message whose bottom is inside the log's view. */
function firstVisible(log: Locator): Promise<string> {
  return log.evaluate((area) => {
    const top = area.getBoundingClientRect().top;
    const item = [...area.querySelectorAll<HTMLElement>("[data-message-id]")].find(
      (element) => element.getBoundingClientRect().bottom > top + 1,
    );
    return item?.querySelector(".message__bubble")?.textContent ?? "";
  });
}

const distanceFromBottom = (log: Locator) =>
  log.evaluate((area) => area.scrollHeight - area.scrollTop - area.clientHeight);
const messageCount = (log: Locator) =>
  log.evaluate((area) => area.querySelectorAll("[data-message-id]").length);

describe.skipIf(!browserAvailable)("scrolling a conversation (useChatScroll)", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("older pages load above the message in view, which keeps its place; new messages follow only at the bottom", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    // Written straight into the database, a minute apart, some longer than a line.
    const start = Date.now() - HISTORY * 60_000;
    await Message.knex()
      .table("messages")
      .insert(
        Array.from({ length: HISTORY }, (_, i) => ({
          client_id: client.id,
          sender_id: owner.id,
          sender_role: "owner",
          content: `History ${i + 1}${i % 3 === 0 ? ": a longer line that wraps on a phone's narrow screen, twice or more." : ""}`,
          created_at: new Date(start + i * 60_000),
        })),
      );
    const text = (n: number) =>
      `History ${n}${(n - 1) % 3 === 0 ? ": a longer line that wraps on a phone's narrow screen, twice or more." : ""}`;

    const page: Page = await openPage(browser, server.url, client.agent, { viewport: PHONE });
    await page.goto(`/client/${client.id}`);
    const log = page.getByRole("log");
    await log.getByText(text(HISTORY), { exact: true }).waitFor();
    await expect.poll(() => distanceFromBottom(log)).toBeLessThan(2);
    expect(await messageCount(log)).toBe(50);

    // Up to the top: each older page goes above, and the message that was at the top of the
    // view stays exactly where it was (not thrown down by the page's height).
    // Each older page is held back until the test has noted what the view shows.
    const held: Route[] = [];
    await page.route(/\/messages\?before=/, (route) => {
      held.push(route);
    });
    for (const loaded of [100, HISTORY]) {
      await log.evaluate((area) => area.scrollTo({ top: 0 }));
      await expect.poll(() => held.length).toBe(1);
      const anchor = await firstVisible(log);
      const before = await offsetOf(log, anchor);
      await held.pop()!.continue();
      await expect.poll(() => messageCount(log)).toBe(loaded);
      await expect.poll(() => offsetOf(log, anchor)).toBeCloseTo(before, 0);
      expect(await log.evaluate((area) => area.scrollTop)).toBeGreaterThan(0);
    }
    await page.unroute(/\/messages\?before=/);
    await log.evaluate((area) => area.scrollTo({ top: 0 }));
    await log.getByText("This is the start of your conversation with Olivia Owner.").waitFor();
    await log.getByText(text(1), { exact: true }).waitFor();
    expect(await messageCount(log)).toBe(HISTORY);

    // Scrolled up, a message arrives: the view does not move, and the button says so.
    const jump = page.getByRole("button", { name: "Latest" });
    await jump.waitFor();
    await log.evaluate((area) => area.scrollTo({ top: area.scrollHeight / 2 }));
    const inView = await firstVisible(log);
    const inViewAt = await offsetOf(log, inView);
    const scrolledTo = await log.evaluate((area) => area.scrollTop);
    await owner.agent.post(`/api/clients/${client.id}/messages`, { content: "While you read" });
    await page.getByRole("button", { name: "New messages" }).waitFor();
    await log.getByText("While you read", { exact: true }).waitFor({ state: "attached" });
    expect(await offsetOf(log, inView)).toBeCloseTo(inViewAt, 0);
    expect(await log.evaluate((area) => area.scrollTop)).toBeCloseTo(scrolledTo, 0);
    expect(await distanceFromBottom(log)).toBeGreaterThan(100);
    const violations = await axeViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);

    // The button takes the view to the newest message, and there the next one is followed.
    await page.getByRole("button", { name: "New messages" }).click();
    await expect.poll(() => distanceFromBottom(log)).toBeLessThan(2);
    await expect
      .poll(() => page.getByRole("button", { name: /New messages|Latest/ }).count())
      .toBe(0);
    await owner.agent.post(`/api/clients/${client.id}/messages`, { content: "And one more" });
    await log.getByText("And one more", { exact: true }).waitFor();
    await expect.poll(() => distanceFromBottom(log)).toBeLessThan(2);
    await expect
      .poll(() =>
        log.evaluate((area) => {
          const last = [...area.querySelectorAll("[data-message-id]")].at(-1)!;
          return last.getBoundingClientRect().bottom <= area.getBoundingClientRect().bottom + 1;
        }),
      )
      .toBe(true);
  }, 60_000);
});
