import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, type JoinedClient } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { expectToast, expectValue, keepScreenshot, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 667 };

// Issue 28, point 1: saved replies are made in Settings and inserted with `/` in the staff's
// composer, filled in for the conversation, by keyboard alone; the client's portal has none.
describe.skipIf(!browserAvailable)("saved replies", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function expectNoViolations(page: Page) {
    const violations = await axeViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);
  }

  async function expectFits(page: Page, width: number) {
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
  }

  /** Tab (forwards) until `target` has the focus; fails after `limit` presses. */
  async function tabTo(page: Page, target: Locator, limit = 25) {
    for (let presses = 0; presses < limit; presses++) {
      if (await target.evaluate((element) => element === document.activeElement)) return;
      await page.keyboard.press("Tab");
    }
    throw new Error("the keyboard never reached the element");
  }

  for (const [label, viewport] of [
    ["1280 px", DESKTOP],
    ["375 px", PHONE],
  ] as const) {
    it(`adds a reply in Settings, then inserts it with / and sends it, by keyboard (${label})`, async () => {
      const owner = await signUpOwner(server, "Olivia Owner");
      const client = await addJoinedClient(server, owner, { name: "Carla Client" });
      const page = await openPage(browser, server.url, owner.agent, { viewport });
      await page.goto(`/?client=${client.id}&settings=replies`);

      // The empty tab says what saved replies are and which variables they hold.
      const dialog = page.getByRole("dialog", { name: "Account Settings" });
      const panel = dialog.getByRole("tabpanel", { name: "Saved replies" });
      await panel.getByText("No saved replies yet").waitFor();
      await panel.getByText("{portal.link}", { exact: true }).waitFor();
      await expectFits(page, viewport.width);
      await keepScreenshot(page, "saved-replies-empty");
      await expectNoViolations(page);

      // New saved reply: the title field takes the focus; an empty form says what is missing.
      await tabTo(page, panel.getByRole("button", { name: "New saved reply" }));
      await page.keyboard.press("Enter");
      const title = panel.getByRole("textbox", { name: "Title" });
      await expect.poll(() => title.evaluate((e) => e === document.activeElement)).toBe(true);
      await tabTo(page, panel.getByRole("button", { name: "Add saved reply" }));
      await page.keyboard.press("Enter");
      await panel.getByText("Title is required").waitFor();
      await panel.getByText("Text is required").waitFor();

      await title.focus();
      await page.keyboard.type("Invoice sent");
      expect(await panel.getByText("Title is required").count()).toBe(0);
      await page.keyboard.press("Tab");
      await page.keyboard.type("Hi ");
      // A variable's button puts it where the cursor was.
      await tabTo(page, panel.getByRole("button", { name: "{client.firstName}" }));
      await page.keyboard.press("Enter");
      const text = panel.getByRole("textbox", { name: "Text" });
      await expect.poll(() => text.evaluate((e) => e === document.activeElement)).toBe(true);
      await page.keyboard.type(", the invoice is out. {me.firstName}");
      await expectValue(text, "Hi {client.firstName}, the invoice is out. {me.firstName}");
      await keepScreenshot(page, "saved-replies-form");
      await tabTo(page, panel.getByRole("button", { name: "Add saved reply" }));
      await page.keyboard.press("Enter");
      await expectToast(page, "Saved reply added");
      const list = panel.getByRole("list", { name: "Saved replies" });
      await list.getByText("Invoice sent", { exact: true }).waitFor();
      await expectFits(page, viewport.width);
      await keepScreenshot(page, "saved-replies-list");
      await expectNoViolations(page);
      // A second one, from the API, to choose between.
      await owner.agent.post("/api/saved-replies", {
        title: "Welcome",
        text: "Welcome aboard, {client.name}!",
      });
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });

      // The composer: `/` opens the list above the field, which keeps the focus.
      const field = page.getByRole("textbox", { name: "Message" });
      await field.focus();
      await page.keyboard.type("Hello /");
      const combobox = page.getByRole("combobox", { name: "Message", exact: true });
      const listbox = page.getByRole("listbox", { name: "Saved replies" });
      await listbox.waitFor();
      expect(await combobox.getAttribute("aria-expanded")).toBe("true");
      const options = listbox.getByRole("option");
      expect(await options.allTextContents()).toEqual([
        "Invoice sentHi {client.firstName}, the invoice is out. {me.firstName}",
        "WelcomeWelcome aboard, {client.name}!",
      ]);
      const activeId = () => combobox.getAttribute("aria-activedescendant");
      expect(await activeId()).toBe(await options.nth(0).getAttribute("id"));
      await page.keyboard.press("ArrowDown");
      expect(await activeId()).toBe(await options.nth(1).getAttribute("id"));
      expect(await options.nth(1).getAttribute("aria-selected")).toBe("true");
      await page.keyboard.press("ArrowDown");
      expect(await activeId()).toBe(await options.nth(0).getAttribute("id"));
      await expectFits(page, viewport.width);
      await keepScreenshot(page, "saved-replies-picker");
      await expectNoViolations(page);

      // Typing filters (title and text); Escape closes and leaves the text as typed.
      await page.keyboard.type("abo");
      await expect
        .poll(() => options.allTextContents())
        .toEqual(["WelcomeWelcome aboard, {client.name}!"]);
      await page.keyboard.press("Escape");
      await listbox.waitFor({ state: "detached" });
      await expectValue(field, "Hello /abo");
      expect(await field.getAttribute("aria-expanded")).toBeNull();
      await page.keyboard.press("Backspace");
      await page.keyboard.press("Backspace");
      await page.keyboard.press("Backspace");
      await page.keyboard.press("Backspace");

      // A fresh slash opens it again; Enter inserts the reply, filled in, in place of `/inv`.
      await page.keyboard.type("/inv");
      await expect
        .poll(() => options.allTextContents())
        .toEqual(["Invoice sentHi {client.firstName}, the invoice is out. {me.firstName}"]);
      await page.keyboard.press("Enter");
      await expectValue(field, "Hello Hi Carla, the invoice is out. Olivia");
      await listbox.waitFor({ state: "detached" });
      // Tab inserts too, where the cursor is.
      await page.keyboard.type(" /wel");
      await expect.poll(() => options.count()).toBe(1);
      await page.keyboard.press("Tab");
      await expectValue(
        field,
        "Hello Hi Carla, the invoice is out. Olivia Welcome aboard, Carla Client!",
      );
      await page.keyboard.press("Enter");
      await page
        .getByRole("log")
        .getByText("Hello Hi Carla, the invoice is out. Olivia Welcome aboard, Carla Client!")
        .waitFor();
      await expectValue(field, "");
      await page.close();
    }, 90_000);
  }

  it("edits and deletes a reply, after a confirmation", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    for (const title of ["Thanks", "Holidays"])
      await owner.agent.post("/api/saved-replies", { title, text: `${title} text` });
    const page = await openPage(browser, server.url, owner.agent, { viewport: DESKTOP });
    await page.goto("/?settings=replies");
    const panel = page.getByRole("tabpanel", { name: "Saved replies" });
    const list = panel.getByRole("list", { name: "Saved replies" });
    await list.waitFor();
    expect(await list.locator(".saved-replies__title").allTextContents()).toEqual([
      "Holidays",
      "Thanks",
    ]);

    await panel.getByRole("button", { name: "Edit Thanks" }).click();
    const title = panel.getByRole("textbox", { name: "Title" });
    await expectValue(title, "Thanks");
    // A title taken by another reply is said beside the field.
    await title.fill("holidays");
    await panel.getByRole("button", { name: "Save changes" }).click();
    await panel.getByText('A saved reply named "Holidays" already exists').waitFor();
    await title.fill("Thank you");
    await panel.getByRole("textbox", { name: "Text" }).fill("Thank you, {client.firstName}!");
    await panel.getByRole("button", { name: "Save changes" }).click();
    await expectToast(page, "Saved reply updated");
    await list.getByText("Thank you, {client.firstName}!").waitFor();

    await panel.getByRole("button", { name: "Delete Holidays" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete this saved reply?" });
    await confirm.getByText("“Holidays” will no longer be offered").waitFor();
    await expectNoViolations(page);
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expectToast(page, "Saved reply deleted");
    await expect
      .poll(() => list.locator(".saved-replies__title").allTextContents())
      .toEqual(["Thank you"]);
    await keepScreenshot(page, "saved-replies-edited");
    await page.close();
  }, 90_000);

  it("offers the Settings tab from an empty picker, by keyboard", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const page = await openPage(browser, server.url, owner.agent, { viewport: PHONE });
    await page.goto(`/?client=${client.id}`);
    await page.getByRole("textbox", { name: "Message" }).focus();
    await page.keyboard.type("/");
    const picker = page.locator(".reply-picker");
    await picker.getByText("No saved replies yet").waitFor();
    await expectNoViolations(page);
    // Tab leaves the field for the picker's link, which stays open for it.
    await page.keyboard.press("Tab");
    const link = picker.getByRole("link", { name: "Add a saved reply" });
    await expect.poll(() => link.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    await page
      .getByRole("dialog", { name: "Account Settings" })
      .getByRole("tab", { name: "Saved replies", selected: true })
      .waitFor();
    // The conversation stays open behind it.
    expect(new URL(page.url()).searchParams.get("client")).toBe(client.id);
    await page.close();
  });

  it("is not in the client's portal", async () => {
    const owner: SignedInOwner = await signUpOwner(server, "Olivia Owner");
    const client: JoinedClient = await addJoinedClient(server, owner, { name: "Carla Client" });
    await owner.agent.post("/api/saved-replies", { title: "Welcome", text: "Welcome!" });
    const portal = await openPage(browser, server.url, client.agent, { viewport: PHONE });
    await portal.goto(`/client/${client.id}`);
    const field = portal.getByRole("textbox", { name: "Message" });
    await field.fill("/");
    await expectValue(field, "/");
    expect(await portal.getByRole("combobox").count()).toBe(0);
    expect(await portal.getByRole("listbox").count()).toBe(0);
    await portal.close();
  });
});
