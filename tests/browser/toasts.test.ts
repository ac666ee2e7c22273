import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, setTier } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { expectToast, keepScreenshot, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

const DESKTOP = { width: 1280, height: 800 };
const SMALL_DESKTOP = { width: 1024, height: 700 };
const PHONE = { width: 390, height: 844 };

/**
 * Notices (toasts) on the owner's dashboard with BILLING_MODE=test: they leave the TEST MODE
 * bar and an open dialog's close button uncovered, Escape is the dialog's, and an error notice
 * goes with the step it was about (its dialog closes, the owner moves to another client).
 */
describe.skipIf(!browserAvailable)("notices on the owner's dashboard", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startTestServer({ env: { BILLING_MODE: "test" } }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const toast = (page: Page) => page.locator(".toast");
  const bar = (page: Page) => page.getByText("TEST MODE: no real payment is taken.");

  async function dashboard(owner: SignedInOwner, viewport: { width: number; height: number }) {
    const page = await openPage(browser, server.url, owner.agent, {
      viewport,
      defaultTimeout: 10_000,
    });
    await page.goto("/");
    await bar(page).waitFor();
    return page;
  }

  /** The two boxes come to share no pixel (the notice moves once what it must clear is there). */
  async function expectApart(first: Locator, second: Locator) {
    const boxes = async () => [await first.boundingBox(), await second.boundingBox()];
    await expect
      .poll(async () => {
        const [a, b] = await boxes();
        if (!a || !b) return "not both shown";
        const overlap =
          a.x < b.x + b.width &&
          b.x < a.x + a.width &&
          a.y < b.y + b.height &&
          b.y < a.y + a.height;
        return overlap ? `${JSON.stringify(a)} overlaps ${JSON.stringify(b)}` : "apart";
      })
      .toBe("apart");
  }

  /** Waits until the notice stands still (its entry animation slides it 8 px). */
  async function settled(page: Page) {
    await expect
      .poll(() => toast(page).evaluate((element) => element.getAnimations().length))
      .toBe(0);
  }

  async function openPasswordTab(page: Page) {
    await page.getByRole("button", { name: "Account settings" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("tab", { name: "Password" }).click();
    return dialog;
  }

  async function mismatch(dialog: Locator) {
    await dialog.getByLabel("Current password").fill("whatever it was");
    await dialog.getByLabel("New password", { exact: true }).fill("one new password");
    await dialog.getByLabel("Confirm new password").fill("another new password");
    await dialog.getByRole("button", { name: "Update Password" }).click();
  }

  it("leave the TEST MODE bar and the dialog's close button uncovered, on a desktop and a phone", async () => {
    const owner = await signUpOwner(server);
    for (const viewport of [DESKTOP, SMALL_DESKTOP, PHONE]) {
      const page = await dashboard(owner, viewport);
      // A notice over the dashboard itself: the success of a subscription, shown as the page
      // loads; here the TEST MODE bar comes after it (the billing mode answers late). The first
      // screen's one request fails, so the pages ask piece by piece, as the desktop app does.
      await page.route("**/api/dashboard**", (route) => route.abort());
      let modeWasAsked = () => {};
      const modeAsked = new Promise<void>((resolve) => (modeWasAsked = resolve));
      let answerMode = () => {};
      const answered = new Promise<void>((resolve) => (answerMode = resolve));
      await page.route("**/api/billing-mode", async (route) => {
        modeWasAsked();
        await answered;
        await route.continue();
      });
      await page.goto("/?subscription=success");
      await expectToast(page, "Payment Successful");
      await modeAsked;
      answerMode();
      await bar(page).waitFor();
      await page.unroute("**/api/billing-mode");
      await page.unroute("**/api/dashboard**");
      await settled(page);
      await expectApart(toast(page), bar(page));
      await keepScreenshot(page, "toast-under-test-mode-bar");
      await toast(page).getByRole("button", { name: "Dismiss notification" }).click();
      await expect.poll(() => toast(page).count()).toBe(0);

      // A notice while the (wide) settings dialog is open.
      const dialog = await openPasswordTab(page);
      await mismatch(dialog);
      await expectToast(page, "Passwords don't match");
      await settled(page);
      await expectApart(toast(page), dialog.getByRole("button", { name: "Close" }));
      await expectApart(toast(page), bar(page));
      await keepScreenshot(page, "toast-over-dialog");
      // The close button takes a click (nothing lies over it).
      await dialog.getByRole("button", { name: "Close" }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      await page.context().close();
    }
  }, 60_000);

  it("Escape closes the open dialog, not the notice shown over it", async () => {
    const owner = await signUpOwner(server);
    const page = await dashboard(owner, DESKTOP);
    await page.getByRole("button", { name: "Account settings" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Company name").fill("Olivia Studio");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Profile updated successfully");

    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await toast(page).getByText("Profile updated successfully").isVisible()).toBe(true);
    // With no dialog open, Escape is the notice's again.
    await page.keyboard.press("Escape");
    await expect.poll(() => toast(page).count()).toBe(0);
  });

  it("an error notice goes when its dialog closes, and when the owner moves to another client", async () => {
    const owner = await signUpOwner(server);
    const page = await dashboard(owner, DESKTOP);

    // An error in a dialog step: closing the dialog (Escape) takes it away.
    const dialog = await openPasswordTab(page);
    await mismatch(dialog);
    await expectToast(page, "Passwords don't match");
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => toast(page).count()).toBe(0);
    // The same with the close button.
    await openPasswordTab(page);
    await mismatch(dialog);
    await expectToast(page, "Passwords don't match");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => toast(page).count()).toBe(0);

    // An error about one client's conversation goes when the owner opens another client.
    await setTier(owner.id, "pro");
    const first = await addJoinedClient(server, owner, { name: "Carla Client" });
    await addJoinedClient(server, owner, { name: "Dan Client" });
    await page.goto(`/?client=${first.id}`);
    await page.route("**/api/clients/*/messages", (route) =>
      route.request().method() === "POST"
        ? route.fulfill({
            status: 400,
            contentType: "application/json",
            body: '{"message":"Message refused"}',
          })
        : route.continue(),
    );
    const composer = page.getByRole("textbox", { name: "Message" });
    await composer.fill("This one is refused");
    await composer.press("Enter");
    await expectToast(page, "Failed to send message");
    await page.getByRole("navigation", { name: "Clients" }).getByText("Dan Client").click();
    await page.getByRole("heading", { name: "Dan Client" }).waitFor();
    await expect.poll(() => toast(page).count()).toBe(0);
  });
});
