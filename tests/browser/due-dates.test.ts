import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDueDate } from "../../shared/due-dates";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import type { TestClock } from "../support/clock";
import { addJoinedClient, setTier } from "../support/conversations";
import { testDatabase } from "../support/database";
import { signUpOwner } from "../support/factories";
import { expectToast, keepScreenshot, sessionOf } from "../support/page";
import { minimalPdf } from "../support/pdf";
import { type TestServer, startTestServer } from "../support/server";
import { linkIn } from "../support/smtp";

const DAY = 24 * 60 * 60_000;

/** YYYY-MM-DD of an instant, in UTC (the zone of every page here). */
const dateOf = (at: Date) => at.toISOString().slice(0, 10);

describe.skipIf(!browserAvailable)("due dates", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    // The reminder pass takes every due reminder of its database: a database of its own.
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

  /** A page in UTC signed in with `agent`, whose clock reads `now`. */
  async function pageAt(
    agent: { cookieHeader: string } | undefined,
    viewport: { width: number; height: number },
    now: Date,
  ): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.url, viewport, timezoneId: "UTC" });
    if (agent)
      await context.addCookies([{ name: "sid", value: sessionOf(agent), url: server.url }]);
    const page = await context.newPage();
    await page.clock.setFixedTime(now);
    return page;
  }

  const cardOf = (page: Page, fileName: string): Locator =>
    page.getByRole("log").locator(".file-message", { hasText: fileName });

  it("the owner sets one, sees it come due and pass; the client is reminded and approves from the email", async () => {
    const clock = server.clock as TestClock;
    // 10:00 UTC today: past 09:00, so "due tomorrow" is due at once for a client in UTC.
    const today = dateOf(clock.now());
    clock.advance(Date.parse(`${today}T10:00:00Z`) - clock.now().getTime());
    const tomorrow = dateOf(new Date(clock.now().getTime() + DAY));
    const later = dateOf(new Date(clock.now().getTime() + 3 * DAY));

    const owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "pro");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });

    // The owner, at 1280 px, sends a file for approval due tomorrow.
    const desk = await pageAt(owner.agent, { width: 1280, height: 800 }, clock.now());
    await desk.goto(`/?client=${client.id}`);
    await desk.getByRole("button", { name: "Upload File" }).click();
    const dialog = desk.getByRole("dialog", { name: "Upload File" });
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: "brochure.pdf", mimeType: "application/pdf", buffer: minimalPdf() });
    expect(await dialog.getByLabel("Due date").count()).toBe(0);
    await dialog.getByLabel("Requires feedback").check();
    await dialog.getByLabel("Due date").fill(tomorrow);
    await keepScreenshot(desk, "due-date-upload-dialog");
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await expectToast(desk, "File uploaded successfully");
    const ownerCard = cardOf(desk, "brochure.pdf");
    await ownerCard.getByText(`Due ${formatDueDate(tomorrow, today)}`).waitFor();
    await ownerCard.getByText("Due tomorrow", { exact: true }).waitFor();
    await keepScreenshot(desk, "due-date-owner-tomorrow");

    // Moved to three days out with the keyboard: no longer urgent; then back to tomorrow.
    const change = async (date: string) => {
      await ownerCard.getByRole("button", { name: "Change due date" }).focus();
      await desk.keyboard.press("Enter");
      const field = ownerCard.getByLabel("Due date");
      await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
      await field.fill(date);
      await keepScreenshot(desk, "due-date-editor");
      await field.press("Enter");
      await expectToast(desk, "Due date saved");
      await ownerCard.getByText(`Due ${formatDueDate(date, today)}`).waitFor();
    };
    await change(later);
    expect(await ownerCard.getByText("Due tomorrow", { exact: true }).count()).toBe(0);
    await change(tomorrow);
    await ownerCard.getByText("Due tomorrow", { exact: true }).waitFor();

    // The client, on a phone, sees the date (and none of the owner's badges).
    const phone = await pageAt(client.agent, { width: 375, height: 740 }, clock.now());
    await phone.goto(`/client/${client.id}`);
    const clientCard = cardOf(phone, "brochure.pdf");
    await clientCard.getByText(`Due ${formatDueDate(tomorrow, today)}`).waitFor();
    expect(await clientCard.getByText("Due tomorrow", { exact: true }).count()).toBe(0);
    expect(await clientCard.getByRole("button", { name: "Change due date" }).count()).toBe(0);
    await expectNoSeriousAxeViolations(phone, "the client's file card with a due date");
    await keepScreenshot(phone, "due-date-client");
    // Both browsers said where they are: the reminders follow the client's zone.
    await expect.poll(async () => (await client.agent.get("/api/user")).body.timeZone).toBe("UTC");

    // 10:00 UTC the day before: the reminder, with its buttons.
    await server.jobs.runOnce("due-reminders");
    await server.jobs.runOnce("mail-outbox");
    const mail = await server.smtp.waitFor(client.email, (m) =>
      m.subject.startsWith("Due tomorrow"),
    );
    expect(mail.subject).toBe("Due tomorrow: brochure.pdf waits for your approval");
    expect(mail.text).toContain("brochure.pdf");
    expect(linkIn(mail, "Open the conversation")).toBe(`${server.url}/client/${client.id}`);
    const mailView = await pageAt(undefined, { width: 600, height: 760 }, clock.now());
    await mailView.setContent(mail.html);
    await keepScreenshot(mailView, "due-date-reminder-mail");
    await mailView.context().close();

    // Two days on, the date has passed: Overdue, in red.
    clock.advance(2 * DAY);
    await desk.clock.setFixedTime(clock.now());
    await desk.reload();
    await ownerCard.getByText("Overdue", { exact: true }).waitFor();
    await expectNoSeriousAxeViolations(desk, "the owner's file card, overdue");
    await keepScreenshot(desk, "due-date-owner-overdue");

    // The owner on a phone sees the same.
    const ownerPhone = await pageAt(owner.agent, { width: 375, height: 740 }, clock.now());
    await ownerPhone.goto(`/?client=${client.id}`);
    await cardOf(ownerPhone, "brochure.pdf").getByText("Overdue", { exact: true }).waitFor();
    await keepScreenshot(ownerPhone, "due-date-owner-overdue");

    // The client approves from the email on the phone; the owner's card says so at once.
    await phone.clock.setFixedTime(clock.now());
    await phone.goto(linkIn(mail, "Approve"));
    await phone.getByRole("button", { name: "Approve file" }).click();
    await phone.getByRole("heading", { name: "Approved" }).waitFor();
    await ownerCard.getByText("Approved", { exact: true }).waitFor();
    expect(await ownerCard.getByText("Overdue", { exact: true }).count()).toBe(0);
  }, 90_000);
});
