import { mkdirSync } from "node:fs";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, type JoinedClient, setTier } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

const PHONE = { width: 375, height: 740 };
/** Set SCREENSHOT_DIR to keep screenshots of the results and the opened messages. */
const shots = process.env.SCREENSHOT_DIR;

describe.skipIf(!browserAvailable)("searching messages in the browser", () => {
  let server: TestServer;
  let browser: Browser;
  let owner: SignedInOwner;
  let carla: JoinedClient;
  let dan: JoinedClient;
  /** The old message the searches look for: the 6th of 160, three pages back. */
  const oldText = "The blueprint for the lighthouse renovation is attached";

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "pro");
    carla = await addJoinedClient(server, owner, { name: "Carla Client" });
    dan = await addJoinedClient(server, owner, { name: "Dan Client" });
    // 160 messages in Carla's conversation, a minute apart; the 6th is the one searched for.
    await server.db.raw(
      `insert into messages (client_id, sender_id, sender_role, content, created_at)
       select ?::uuid, case when g % 2 = 0 then ?::uuid else ?::uuid end,
              case when g % 2 = 0 then 'owner' else 'client' end,
              case when g = 6 then ? else 'Routine update number ' || g end,
              now() - make_interval(mins => 200 - g)
         from generate_series(1, 160) g order by g`,
      [carla.id, owner.id, carla.userId, oldText],
    );
    await owner.agent.post(`/api/clients/${dan.id}/messages`, {
      content: "Dan's lighthouse visit is on Friday",
    });
    if (shots) mkdirSync(shots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const messageItem = (page: Page, text: string) =>
    page.getByRole("log").locator("li.message", { hasText: text });

  /** The message is highlighted and inside the conversation's visible area. */
  async function expectShown(item: Locator) {
    await expect.poll(() => item.getAttribute("aria-current")).toBe("true");
    await expect
      .poll(() =>
        item.evaluate((element) => {
          const area = element.closest('[role="log"]')!.getBoundingClientRect();
          const box = element.getBoundingClientRect();
          return box.top >= area.top - 1 && box.bottom <= area.bottom + 1;
        }),
      )
      .toBe(true);
  }

  it("owner searches all conversations, and a result opens the conversation at an old message", async () => {
    const page = await openPage(browser, server.url, owner.agent);
    await page.goto("/");
    const field = page.getByRole("combobox", { name: "Search messages" });
    await field.fill("lightho");
    const results = page.getByRole("listbox", { name: "Search results" });
    const options = results.getByRole("option");
    await expect.poll(() => options.count()).toBe(2);
    // Newest first: Dan's, then Carla's; each names the conversation, the sender and marks the match.
    await expect.poll(() => options.nth(0).textContent()).toContain("Dan Client");
    expect(await options.nth(1).textContent()).toContain("Carla Client");
    expect(await options.nth(1).locator("mark").allTextContents()).toEqual(["lighthouse"]);
    // The client list is back once the field is cleared (Escape); the results take its place meanwhile.
    expect(await page.getByRole("navigation", { name: "Clients" }).count()).toBe(0);
    if (shots) await page.screenshot({ path: `${shots}/owner-results.png` });
    await expectNoSeriousAxeViolations(page, "the dashboard's search results");

    // Keyboard: down twice, Enter opens Carla's.
    await field.press("ArrowDown");
    await field.press("ArrowDown");
    await expect.poll(() => options.nth(1).getAttribute("aria-selected")).toBe("true");
    await field.press("Enter");
    await expect.poll(() => new URL(page.url()).searchParams.get("client")).toBe(carla.id);
    const target = messageItem(page, oldText);
    await expectShown(target);
    // Three pages were loaded to reach it; the newest message is out of view.
    await expect
      .poll(() => page.getByRole("log").locator("li.message").count())
      .toBeGreaterThan(150);
    // Once shown, the message leaves the address (so the same result can be opened again).
    await expect.poll(() => new URL(page.url()).searchParams.get("message")).toBeNull();
    if (shots) await page.screenshot({ path: `${shots}/owner-opened.png` });

    // A click on the other result opens Dan's conversation there.
    await options.nth(0).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("client")).toBe(dan.id);
    await expectShown(messageItem(page, "Dan's lighthouse visit"));

    // Nothing found says so; Escape clears the field and the client list returns.
    await field.fill("submarine");
    await page.getByText("No messages found").waitFor();
    await field.press("Escape");
    await page.getByRole("navigation", { name: "Clients" }).waitFor();
    await page.context().close();
  });

  it("a client searches their own conversation in a dialog on a phone", async () => {
    const page = await openPage(browser, server.url, carla.agent, { viewport: PHONE });
    await page.goto(`/client/${carla.id}`);
    await messageItem(page, "Routine update number 160").waitFor();
    await page.getByRole("button", { name: "Search messages" }).click();
    const dialog = page.getByRole("dialog", { name: "Search your conversation" });
    const field = dialog.getByRole("combobox", { name: "Search messages" });
    await expect
      .poll(() => field.evaluate((element) => element === document.activeElement))
      .toBe(true);
    await field.fill("lighthouse");
    const options = dialog.getByRole("option");
    // Only Carla's own: Dan's message with the same word is not hers.
    await expect.poll(() => options.count()).toBe(1);
    expect(await options.first().textContent()).toContain("Olivia Owner");
    expect(await dialog.textContent()).not.toContain("Dan");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    if (shots) await page.screenshot({ path: `${shots}/client-dialog.png` });
    await expectNoSeriousAxeViolations(page, "the portal's search dialog");

    await options.first().click();
    await dialog.waitFor({ state: "detached" });
    await expectShown(messageItem(page, oldText));
    expect(new URL(page.url()).pathname).toBe(`/client/${carla.id}`);
    await expect.poll(() => new URL(page.url()).search).toBe("");
    if (shots) await page.screenshot({ path: `${shots}/client-opened.png` });
    await page.context().close();
  });
});
