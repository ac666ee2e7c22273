import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import type { TestClock } from "../support/clock";
import { testDatabase } from "../support/database";
import { expectPath, openPage } from "../support/page";
import {
  feedbackAsOwnerSees,
  type FileSentForApproval,
  sendFileForApproval,
} from "../support/file-for-approval";
import { type TestServer, startTestServer } from "../support/server";
import { linkIn } from "../support/smtp";

/** Set SCREENSHOT_DIR to keep screenshots of the email and the pages. */
const SHOTS = process.env.SCREENSHOT_DIR;

describe.skipIf(!browserAvailable)("approve from the inbox", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    // The notification sweep takes every due row of its database: a database of its own.
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

  const fileSentForApproval = (fileName: string) => sendFileForApproval(server, fileName);
  const feedbackOf = feedbackAsOwnerSees;

  /** A mail scanner: fetches the link and runs the page's scripts, in a browser of its own. */
  async function scan(url: string): Promise<void> {
    const scanner = await openPage(browser, server.url);
    await scanner.goto(url);
    await scanner.getByRole("button", { name: /Approve file|Send feedback/ }).waitFor();
    expect(await scanner.context().cookies()).toEqual([]);
    await scanner.context().close();
  }

  const ownerConversation = async (sent: FileSentForApproval): Promise<Page> => {
    const page = await openPage(browser, server.url, sent.owner.agent);
    await page.goto(`/?client=${sent.client.id}`);
    return page;
  };

  it("a client approves a file from the email, on a phone, and lands in the conversation", async () => {
    const sent = await fileSentForApproval("logo-final.pdf");
    const approve = linkIn(sent.mail, "Approve");
    expect(approve).toMatch(/\/client\/feedback\/[\w-]{43}$/);
    expect(sent.mail.html).toContain(`href="${approve}"`);
    expect(sent.mail.html).toContain(">Approve</a>");
    expect(sent.mail.html).toContain(">Needs Work</a>");
    if (SHOTS) {
      const mailView = await browser.newPage({ viewport: { width: 600, height: 700 } });
      await mailView.setContent(sent.mail.html);
      await mailView.screenshot({ path: `${SHOTS}/email.png`, fullPage: true });
      await mailView.close();
    }

    // Scanners follow both links, scripts and all: nothing changes.
    await scan(approve);
    await scan(linkIn(sent.mail, "Needs Work"));
    expect(await feedbackOf(sent)).toMatchObject({ feedbackStatus: "pending" });

    const ownerPage = await ownerConversation(sent);
    const ownerCard = ownerPage
      .getByRole("log")
      .locator(".file-message", { hasText: "logo-final.pdf" });
    await ownerCard.getByText("Feedback Required").waitFor();

    // The client opens the email on their phone, in a browser that is not signed in.
    const phone = await openPage(browser, server.url, undefined, {
      viewport: { width: 375, height: 740 },
    });
    await phone.goto(approve);
    await phone.getByRole("heading", { name: "Approve this file?" }).waitFor();
    await phone.getByText("logo-final.pdf").waitFor();
    await phone
      .getByText("Olivia Owner asked you to approve this file.", { exact: false })
      .waitFor();
    await expectNoSeriousAxeViolations(phone, "the Approve page");
    if (SHOTS)
      await phone.screenshot({ path: `${SHOTS}/approve-confirm-phone.png`, fullPage: true });
    expect(await feedbackOf(sent)).toMatchObject({ feedbackStatus: "pending" });

    // Keyboard only: Tab to the button, Enter.
    const confirm = phone.getByRole("button", { name: "Approve file" });
    await confirm.focus();
    await phone.keyboard.press("Enter");
    await phone.getByRole("heading", { name: "Approved" }).waitFor();
    await phone.getByRole("status").getByText("You approved logo-final.pdf.").waitFor();
    await expectNoSeriousAxeViolations(phone, "the outcome");
    if (SHOTS) await phone.screenshot({ path: `${SHOTS}/approve-done-phone.png`, fullPage: true });
    expect(await feedbackOf(sent)).toMatchObject({ feedbackStatus: "approved" });

    // The owner's open conversation shows it at once (feedback_updated).
    await ownerCard.getByText("Approved", { exact: true }).waitFor();

    // Into the conversation: the link signed this browser in as the client.
    await phone.getByRole("link", { name: "Open the conversation" }).click();
    await expectPath(phone, `/client/${sent.client.id}`);
    const clientCard = phone
      .getByRole("log")
      .locator(".file-message", { hasText: "logo-final.pdf" });
    await clientCard.getByText("Approved", { exact: true }).waitFor();
    expect(await clientCard.getByRole("button", { name: "Approve" }).count()).toBe(0);

    // The link worked once; opened again it says so, with the way into the conversation.
    await phone.goto(approve);
    await phone.getByRole("heading", { name: "This link was already used" }).waitFor();
    await phone.getByText("This file is approved.", { exact: false }).waitFor();
    await phone.getByRole("link", { name: "Open the conversation" }).waitFor();
  });

  it("Needs Work asks for the comment on the page, and the owner reads it", async () => {
    const sent = await fileSentForApproval("homepage.pdf");
    const needsWork = linkIn(sent.mail, "Needs Work");
    await scan(needsWork);
    const ownerPage = await ownerConversation(sent);
    const ownerCard = ownerPage
      .getByRole("log")
      .locator(".file-message", { hasText: "homepage.pdf" });
    await ownerCard.getByText("Feedback Required").waitFor();

    const page = await openPage(browser, server.url);
    await page.goto(needsWork);
    await page.getByRole("heading", { name: "What needs work?" }).waitFor();
    const comment = page.getByLabel("Your comment");
    // No comment: said next to the field, which gets the focus; nothing is sent.
    await page.getByRole("button", { name: "Send feedback" }).click();
    await page
      .getByRole("alert")
      .getByText("Please provide a comment when selecting 'Needs Work'")
      .waitFor();
    await expect.poll(() => comment.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await comment.getAttribute("aria-invalid")).toBe("true");
    expect(await feedbackOf(sent)).toMatchObject({ feedbackStatus: "pending" });
    await expectNoSeriousAxeViolations(page, "the Needs Work page");
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/needs-work-error.png`, fullPage: true });

    await comment.fill("The header photo is too dark.\nPlease try the lighter one.");
    await page.getByRole("button", { name: "Send feedback" }).click();
    await page.getByRole("heading", { name: "Feedback sent" }).waitFor();
    await page.getByText("homepage.pdf is marked Needs Work.").waitFor();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/needs-work-done.png`, fullPage: true });
    expect(await feedbackOf(sent)).toMatchObject({
      feedbackStatus: "needs_work",
      feedbackComment: "The header photo is too dark.\nPlease try the lighter one.",
    });
    await ownerCard.getByText("Needs Work", { exact: true }).waitFor();
    await ownerCard.getByText("The header photo is too dark.", { exact: false }).waitFor();

    // The other button of the same email now says the file was decided, with the comment.
    await page.goto(linkIn(sent.mail, "Approve"));
    await page.getByRole("heading", { name: "This file was already decided" }).waitFor();
    await page.getByText("This file is marked Needs Work.", { exact: false }).waitFor();
    await page.getByText("The header photo is too dark.", { exact: false }).waitFor();
  });

  it("an expired link explains itself and leads to the conversation", async () => {
    const sent = await fileSentForApproval("poster.pdf");
    (server.clock as TestClock).advanceMinutes(7 * 24 * 60);
    const page = await openPage(browser, server.url);
    await page.goto(linkIn(sent.mail, "Approve"));
    await page.getByRole("heading", { name: "This link has expired" }).waitFor();
    await page.getByText("Links in emails work for 7 days.", { exact: false }).waitFor();
    await page.getByRole("link", { name: "Open the conversation" }).click();
    await expectPath(page, `/client/${sent.client.id}`);
    expect(await feedbackOf(sent)).toMatchObject({ feedbackStatus: "pending" });

    await page.goto(`${server.url}/client/feedback/${"x".repeat(43)}`);
    await page.getByRole("heading", { name: "This link is not valid" }).waitFor();
  });
});
