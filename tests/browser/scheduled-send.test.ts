import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import type { TestClock } from "../support/clock";
import { addJoinedClient, setTier } from "../support/conversations";
import { testDatabase } from "../support/database";
import { signUpOwner } from "../support/factories";
import { expectToast, keepScreenshot, sessionOf } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

// Scheduled send (issue 28, point 2) in the dashboard: Send later, the Scheduled list, Edit,
// Send now, Cancel; at 1280 and 375 px, by mouse and by keyboard.

describe.skipIf(!browserAvailable)("scheduled send", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    // The job sends every due scheduled message of its database: a database of its own.
    [server, browser] = await Promise.all([
      testDatabase({ isolated: true }).then((db) => startTestServer({ db })),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await server?.db.destroy();
  });

  /** A page in UTC signed in with `agent`. */
  async function pageFor(
    agent: { cookieHeader: string },
    viewport: { width: number; height: number },
  ): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.url, viewport, timezoneId: "UTC" });
    await context.addCookies([{ name: "sid", value: sessionOf(agent), url: server.url }]);
    return context.newPage();
  }

  const scheduledList = (page: Page): Locator =>
    page.getByRole("region", { name: "Scheduled messages" });
  const itemOf = (page: Page, text: string): Locator =>
    scheduledList(page).getByRole("listitem").filter({ hasText: text });
  const log = (page: Page): Locator => page.getByRole("log");
  const field = (page: Page): Locator =>
    page.getByRole("textbox", { name: "Message", exact: true });

  it("schedules from the composer's menu and the picker, lists, edits, sends now and cancels", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "pro");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });

    const desk = await pageFor(owner.agent, { width: 1280, height: 800 });
    await desk.goto(`/?client=${client.id}`);
    // A second page of the owner's, on a phone: the list follows there live.
    const phone = await pageFor(owner.agent, { width: 375, height: 740 });
    await phone.goto(`/?client=${client.id}`);
    await field(phone).waitFor();

    // A quick choice, with the mouse.
    await field(desk).fill("Morning check-in");
    await desk.getByRole("button", { name: "Send later" }).click();
    const menu = desk.getByRole("menu", { name: "Send later" });
    await menu.getByRole("menuitem", { name: /Tomorrow 9:00/ }).waitFor();
    await menu.getByRole("menuitem", { name: /Monday 9:00/ }).waitFor();
    await expectNoSeriousAxeViolations(desk, "the Send later menu");
    await keepScreenshot(desk, "scheduled-send-menu");
    await menu.getByRole("menuitem", { name: /Tomorrow 9:00/ }).click();
    await expectToast(desk, "Message scheduled");
    await itemOf(desk, "Morning check-in").waitFor();
    expect(await field(desk).inputValue()).toBe("");
    expect(await log(desk).getByText("Morning check-in").count()).toBe(0);
    await scheduledList(desk).getByRole("button", { name: "Scheduled (1)" }).waitFor();
    // Live on the owner's other page.
    await itemOf(phone, "Morning check-in").waitFor();

    // The picker, by keyboard only: Tab from the field to Send later, the arrow keys to
    // "Pick date & time", a time typed in the sender's zone, Enter.
    await field(desk).fill("Picked by keyboard");
    await field(desk).focus();
    await desk.keyboard.press("Tab"); // Send
    await desk.keyboard.press("Tab"); // Send later
    await expect
      .poll(() => desk.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Send later");
    await desk.keyboard.press("Enter");
    await desk.keyboard.press("ArrowDown");
    await desk.keyboard.press("ArrowDown");
    await expect
      .poll(() => desk.evaluate(() => document.activeElement?.textContent))
      .toBe("Pick date & time…");
    await desk.keyboard.press("Enter");
    const picker = desk.getByRole("dialog", { name: "Send later" });
    const when = picker.getByLabel("Send at");
    await expect.poll(() => when.evaluate((el) => el === document.activeElement)).toBe(true);
    await when.fill("2020-01-01T09:00");
    await when.press("Enter");
    await picker.getByText("Choose a time at least a minute from now").waitFor();
    const inTwoDays = new Date(Date.now() + 2 * 24 * 60 * 60_000).toISOString().slice(0, 10);
    await when.fill(`${inTwoDays}T14:30`);
    await keepScreenshot(desk, "scheduled-send-picker");
    await when.press("Enter");
    await expectToast(desk, "Message scheduled");
    await picker.waitFor({ state: "hidden" });
    await itemOf(desk, "Picked by keyboard").waitFor();
    await scheduledList(desk).getByRole("button", { name: "Scheduled (2)" }).waitFor();
    // Back in the composer, which did not send the text as well.
    await expect.poll(() => field(desk).evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await log(desk).getByText("Picked by keyboard").count()).toBe(0);
    const timeOf = (text: string) => itemOf(desk, text).locator("time").getAttribute("datetime");
    expect(await timeOf("Picked by keyboard")).toBe(`${inTwoDays}T14:30:00.000Z`);
    await expectNoSeriousAxeViolations(desk, "the Scheduled list");
    await keepScreenshot(desk, "scheduled-send-list");

    // Edit: the text and the time.
    await itemOf(desk, "Morning check-in").getByRole("button", { name: "Edit" }).click();
    const editor = desk.getByRole("dialog", { name: "Edit scheduled message" });
    await editor.getByLabel("Message").fill("Morning check-in, with the agenda");
    await editor.getByLabel("Send at").fill(`${inTwoDays}T08:15`);
    await keepScreenshot(desk, "scheduled-send-edit");
    await editor.getByRole("button", { name: "Save" }).click();
    await expectToast(desk, "Scheduled message saved");
    await editor.waitFor({ state: "hidden" });
    expect(await timeOf("with the agenda")).toBe(`${inTwoDays}T08:15:00.000Z`);
    // Soonest first.
    await expect
      .poll(() => scheduledList(desk).getByRole("listitem").allTextContents())
      .toEqual([
        expect.stringContaining("Morning check-in, with the agenda"),
        expect.stringContaining("Picked by keyboard"),
      ]);

    // The client never sees any of it.
    const portal = await pageFor(client.agent, { width: 375, height: 740 });
    await portal.goto(`/client/${client.id}`);
    await field(portal).waitFor();
    expect(await scheduledList(portal).count()).toBe(0);
    expect(await log(portal).getByText("with the agenda").count()).toBe(0);

    // Send now: in both sides' conversations at once, off the list.
    await itemOf(desk, "with the agenda").getByRole("button", { name: "Send now" }).click();
    await expectToast(desk, "Message sent");
    await log(desk).getByText("Morning check-in, with the agenda").waitFor();
    await log(portal).getByText("Morning check-in, with the agenda").waitFor();
    await scheduledList(desk).getByRole("button", { name: "Scheduled (1)" }).waitFor();

    // Cancel, after a confirmation; Keep it leaves it.
    const cancelIt = () =>
      itemOf(desk, "Picked by keyboard").getByRole("button", { name: "Cancel" }).click();
    await cancelIt();
    const confirm = desk.getByRole("dialog", { name: "Cancel this scheduled message?" });
    await confirm.getByRole("button", { name: "Keep it" }).click();
    await confirm.waitFor({ state: "hidden" });
    await cancelIt();
    await keepScreenshot(desk, "scheduled-send-cancel");
    await confirm.getByRole("button", { name: "Cancel message" }).click();
    await expectToast(desk, "Scheduled message cancelled");
    await scheduledList(desk).waitFor({ state: "detached" });
    await scheduledList(phone).waitFor({ state: "detached" });
    expect(await log(portal).getByText("Picked by keyboard").count()).toBe(0);
  }, 90_000);

  it("works on a phone, and the job sends at its time as if typed then", async () => {
    const clock = server.clock as TestClock;
    const owner = await signUpOwner(server, "Pat Phone");
    await setTier(owner.id, "pro");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const phone = await pageFor(owner.agent, { width: 375, height: 740 });
    await phone.goto(`/?client=${client.id}`);
    const portal = await pageFor(client.agent, { width: 375, height: 740 });
    await portal.goto(`/client/${client.id}`);
    await field(portal).waitFor();

    await field(phone).fill("A long message written on the train, to land on Monday morning");
    await phone.getByRole("button", { name: "Send later" }).click();
    await phone.getByRole("menuitem", { name: /Monday 9:00/ }).click();
    await expectToast(phone, "Message scheduled");
    const item = itemOf(phone, "written on the train");
    await item.waitFor();
    // Nothing wider than the screen.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await expectNoSeriousAxeViolations(phone, "the Scheduled list on a phone");
    await keepScreenshot(phone, "scheduled-send-phone");

    // Monday 9:00 comes: the job sends it, and the client's open page shows it.
    const sendAt = Date.parse((await item.locator("time").getAttribute("datetime")) ?? "");
    clock.advance(sendAt - clock.now().getTime() + 1_000);
    await server.jobs.runOnce("scheduled-messages");
    await log(portal).getByText("written on the train").waitFor();
    await log(phone).getByText("written on the train").waitFor();
    await scheduledList(phone).waitFor({ state: "detached" });
  }, 90_000);
});
