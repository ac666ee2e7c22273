import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedContact } from "../support/contacts";
import { addJoinedClient, setTier } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { expectToast, keepScreenshot, openPage } from "../support/page";
import { minimalPdf } from "../support/pdf";
import { type TestServer, startTestServer } from "../support/server";

const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

/** Tab (or Shift+Tab) until `target` has the focus. */
async function tabTo(page: Page, target: Locator, backwards = false) {
  for (let presses = 0; presses < 40; presses += 1) {
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    const focused = await target
      .evaluate((element) => element === document.activeElement)
      .catch(() => false);
    if (focused) return;
  }
  throw new Error(`Tab did not reach ${target}`);
}

async function expectNoAxeViolations(page: Page) {
  const violations = await axeViolations(page);
  expect(violations, describeViolations(violations)).toEqual([]);
}

/** The record downloads from `card`'s link: its name, and PDF bytes. */
async function downloadRecord(page: Page, card: Locator, fileName: string) {
  const link = card.getByRole("link", { name: /^Approval record of/ });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toBe(fileName);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).subarray(0, 5).toString()).toBe("%PDF-");
}

// Issue 27, points 5 and 6: a client with two people; the owner asks both to approve; each
// decides on their phone in turn; the card says who decided; the record downloads on both sides.
describe.skipIf(!browserAvailable)("who must approve, and the approval record", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const log = (page: Page) => page.getByRole("log");
  const card = (page: Page, name: string) => log(page).locator(".file-message", { hasText: name });

  it("everyone approves in turn, each decision shows, and both sides download the record", {
    timeout: 120_000,
  }, async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "agency");
    const carla = await addJoinedClient(server, owner, { name: "Carla Client" });
    const dora = await addJoinedContact(server, owner, carla.id, { name: "Dora Director" });

    const op = await openPage(browser, server.url, owner.agent, {
      viewport: DESKTOP,
      defaultTimeout: 8000,
    });
    await op.goto(`/?client=${carla.id}`);
    await log(op).getByText("No messages yet").waitFor();

    // The owner sends a poster for approval; with two people, the dialog asks who approves.
    await op.getByRole("button", { name: "Upload File" }).click();
    const dialog = op.getByRole("dialog", { name: "Upload File" });
    await dialog.locator('input[type="file"]').setInputFiles({
      name: "poster.pdf",
      mimeType: "application/pdf",
      buffer: minimalPdf("Poster"),
    });
    await dialog.getByText("poster.pdf").waitFor();
    expect(await dialog.getByRole("group", { name: "Who must approve?" }).count()).toBe(0);
    await dialog.getByRole("checkbox", { name: /Requires feedback/ }).check();
    const choice = dialog.getByRole("group", { name: "Who must approve?" });
    const anyOne = choice.getByRole("radio", { name: /Any one of them/ });
    await anyOne.waitFor();
    expect(await anyOne.isChecked()).toBe(true);
    // The keyboard moves the choice to Everyone (arrow keys within the radio group).
    await anyOne.focus();
    await op.keyboard.press("ArrowDown");
    const everyone = choice.getByRole("radio", { name: /Everyone/ });
    expect(await everyone.isChecked()).toBe(true);
    await choice.getByText("Everyone must approve: Carla Client, Dora Director").waitFor();
    await keepScreenshot(op, "approvers-upload-dialog");
    await expectNoAxeViolations(op);
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await expectToast(op, "File uploaded successfully");
    const ownerCard = card(op, "poster.pdf");
    await ownerCard.getByText("Everyone must approve: Carla Client, Dora Director").waitFor();
    await ownerCard.getByText("Waiting for Carla Client, Dora Director").waitFor();

    // Dora approves first, on her phone.
    const dp = await openPage(browser, server.url, dora.agent, {
      viewport: PHONE,
      defaultTimeout: 8000,
    });
    await dp.goto(`/client/${carla.id}`);
    const doraCard = card(dp, "poster.pdf");
    await doraCard.getByRole("button", { name: "Approve" }).click();
    await expectToast(dp, "Feedback submitted successfully");
    await doraCard.getByText("You approved · waiting for Carla Client").waitFor();
    // Nothing waits for her any more.
    await expect.poll(() => dp.getByText(/waits? for your approval/).count()).toBe(0);
    expect(await doraCard.getByRole("button", { name: "Approve" }).count()).toBe(0);
    await keepScreenshot(dp, "approvers-dora-approved");
    await expectNoAxeViolations(dp);
    // The owner sees it live; the file still waits.
    await ownerCard.getByText("Approved by Dora Director · Waiting for Carla Client").waitFor();
    await ownerCard.getByText("Feedback Required").waitFor();

    // Carla approves from the keyboard on her phone.
    const cp = await openPage(browser, server.url, carla.agent, {
      viewport: PHONE,
      defaultTimeout: 8000,
    });
    await cp.goto(`/client/${carla.id}`);
    const carlaCard = card(cp, "poster.pdf");
    await carlaCard.getByText("Approved by Dora Director · Waiting for you").waitFor();
    const approve = carlaCard.getByRole("button", { name: "Approve" });
    await tabTo(cp, approve);
    await cp.keyboard.press("Enter");
    await expectToast(cp, "Feedback submitted successfully");
    await carlaCard.getByText("Approved", { exact: true }).waitFor();
    await carlaCard.getByText("You and Dora Director approved").waitFor();
    expect(await cp.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await keepScreenshot(cp, "approvers-carla-approved");
    await expectNoAxeViolations(cp);

    // The owner's card: approved by both, and the record to download.
    await ownerCard.getByText("Approved by Carla Client, Dora Director").waitFor();
    await ownerCard.getByText("Approved", { exact: true }).waitFor();
    await keepScreenshot(op, "approvers-owner-approved");
    await expectNoAxeViolations(op);
    await downloadRecord(op, ownerCard, "approval-record-poster-v1.pdf");
    // And on the client's side, reached with the keyboard.
    const record = carlaCard.getByRole("link", { name: /^Approval record of/ });
    await tabTo(cp, record, true);
    await downloadRecord(cp, carlaCard, "approval-record-poster-v1.pdf");

    // On a phone the owner's card fits too.
    await op.setViewportSize(PHONE);
    await ownerCard.getByText("Approved by Carla Client, Dora Director").waitFor();
    await keepScreenshot(op, "approvers-owner-approved");
    for (const page of [op, dp, cp]) await page.close();
  });
});
