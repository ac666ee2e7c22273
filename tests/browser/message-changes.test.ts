import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, type JoinedClient } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { keepScreenshot, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

// Issue 28, point 3: the author edits and deletes their own message from its "More" menu, by
// keyboard; the other side, open at the same time, sees "Edited" and "Message deleted" live, and
// the staff can read the previous text.
describe.skipIf(!browserAvailable)("editing and deleting messages", () => {
  let server: TestServer;
  let browser: Browser;
  let owner: SignedInOwner;
  let client: JoinedClient;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    owner = await signUpOwner(server, "Olivia Owner");
    client = await addJoinedClient(server, owner, { name: "Carla Client" });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const post = async (agent: SignedInOwner["agent"], content: string) => {
    const sent = await agent.post(`/api/clients/${client.id}/messages`, { content });
    expect(sent.status).toBe(201);
  };
  const message = (page: Page, text: string): Locator =>
    page.getByRole("log").getByRole("listitem").filter({ hasText: text });
  const focusedName = (page: Page) =>
    page.evaluate(
      () =>
        document.activeElement?.getAttribute("aria-label") ??
        document.activeElement?.textContent?.trim(),
    );
  const noWiderThan = async (page: Page, width: number) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
  const expectNoViolations = async (page: Page) => {
    const violations = await axeViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);
  };

  it("edits and deletes the owner's message by keyboard; the portal follows live", async () => {
    await post(client.agent, "Is the logo ready?");
    await post(owner.agent, "See you on Tuesdya");
    const portal = await openPage(browser, server.url, client.agent, { viewport: PHONE });
    await portal.goto(`/client/${client.id}`);
    await message(portal, "See you on Tuesdya").waitFor();
    const page = await openPage(browser, server.url, owner.agent, { viewport: DESKTOP });
    await page.goto(`/?client=${client.id}`);
    const mine = message(page, "See you on Tuesdya");
    await mine.waitFor();
    // The client's message has no actions for the owner.
    const theirs = message(page, "Is the logo ready?");
    expect(await theirs.getByRole("button", { name: "Message actions" }).count()).toBe(0);

    // Keyboard: the "More" button opens its menu on Edit; Enter opens the editor.
    const more = mine.getByRole("button", { name: "Message actions" });
    await more.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("menu", { name: "Message actions" }).waitFor();
    expect(await focusedName(page)).toBe("Edit");
    await keepScreenshot(page, "message-actions-menu");
    await page.keyboard.press("Enter");
    const field = page.getByRole("textbox", { name: "Edit message" });
    await field.waitFor();
    expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
    // Escape leaves it as it was.
    await page.keyboard.type(" (draft)");
    await page.keyboard.press("Escape");
    await field.waitFor({ state: "detached" });
    expect(await focusedName(page)).toBe("Message actions");
    await mine.getByText("See you on Tuesdya", { exact: true }).waitFor();

    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await field.waitFor();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("See you on Tuesday at 10");
    await keepScreenshot(page, "message-editor");
    await page.keyboard.press("Enter");
    const edited = message(page, "See you on Tuesday at 10");
    await edited.getByRole("button", { name: "Edited" }).waitFor();
    await expect.poll(() => focusedName(page)).toBe("Message actions");

    // The portal, open all along: the new text and "Edited", without the history.
    const onPortal = message(portal, "See you on Tuesday at 10");
    await onPortal.getByText("Edited", { exact: true }).waitFor();
    expect(await onPortal.getByRole("button", { name: "Edited" }).count()).toBe(0);
    expect(await portal.getByText("Tuesdya").count()).toBe(0);
    await noWiderThan(portal, PHONE.width);
    await keepScreenshot(portal, "message-edited-portal");
    await expectNoViolations(portal);

    // The staff read the previous text.
    await edited.getByRole("button", { name: "Edited" }).click();
    const history = page.getByRole("dialog", { name: "Edit history" });
    await history.getByText("See you on Tuesdya", { exact: true }).waitFor();
    await keepScreenshot(page, "message-edit-history");
    await expectNoViolations(page);
    await page.keyboard.press("Escape");
    await history.waitFor({ state: "detached" });

    // Delete: the menu's second item, then the confirmation.
    await edited.getByRole("button", { name: "Message actions" }).focus();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    expect(await focusedName(page)).toBe("Delete");
    await page.keyboard.press("Enter");
    const confirm = page.getByRole("dialog", { name: "Delete message?" });
    await confirm.waitFor();
    await keepScreenshot(page, "message-delete-confirm");
    await confirm.getByRole("button", { name: "Delete", exact: true }).focus();
    await page.keyboard.press("Enter");
    await confirm.waitFor({ state: "detached" });
    await page.getByRole("log").getByText("Message deleted", { exact: true }).waitFor();
    expect(await page.getByText("See you on Tuesday at 10").count()).toBe(0);
    await keepScreenshot(page, "message-deleted-dashboard");
    await expectNoViolations(page);

    await portal.getByRole("log").getByText("Message deleted", { exact: true }).waitFor();
    expect(await portal.getByText("See you on Tuesday at 10").count()).toBe(0);
    await keepScreenshot(portal, "message-deleted-portal");
    await page.close();
    await portal.close();
  }, 90_000);

  it("lets a client on a phone edit their own message; the dashboard follows live", async () => {
    await post(client.agent, "Plese send the invoice");
    const page = await openPage(browser, server.url, owner.agent, { viewport: DESKTOP });
    await page.goto(`/?client=${client.id}`);
    await message(page, "Plese send the invoice").waitFor();
    const portal = await openPage(browser, server.url, client.agent, { viewport: PHONE });
    await portal.goto(`/client/${client.id}`);
    const mine = message(portal, "Plese send the invoice");
    await mine.waitFor();

    // On a touch-sized screen the button is there to tap; it fits the 375 px width.
    const more = mine.getByRole("button", { name: "Message actions" });
    const box = await more.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    await more.click();
    await portal.getByRole("menuitem", { name: "Edit" }).click();
    const field = portal.getByRole("textbox", { name: "Edit message" });
    await field.fill("Please send the invoice");
    await noWiderThan(portal, PHONE.width);
    await keepScreenshot(portal, "message-editor-portal");
    await portal.getByRole("button", { name: "Save", exact: true }).click();
    await message(portal, "Please send the invoice").getByText("Edited").waitFor();

    const onDashboard = message(page, "Please send the invoice");
    await onDashboard.getByRole("button", { name: "Edited" }).waitFor();
    expect(await page.getByText("Plese send").count()).toBe(0);
    await keepScreenshot(page, "message-edited-dashboard");
    await page.close();
    await portal.close();
  }, 90_000);
});
