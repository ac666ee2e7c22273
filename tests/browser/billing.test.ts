import path from "node:path";
import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient } from "../support/conversations";
import { type SignedInOwner, signUpOwner, uniqueEmail } from "../support/factories";
import { expectPath, expectToast, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

/** Set SCREENSHOT_DIR to keep screenshots of the billing screens. */
const screenshotDir = process.env.SCREENSHOT_DIR;

describe.skipIf(!browserAvailable)("plans, billing and branding in the browser (test mode)", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A browser signed in with an API agent's session. */
  const pageAs = (agent: { cookieHeader: string }): Promise<Page> =>
    openPage(browser, server.url, agent, {
      viewport: { width: 1280, height: 860 },
      defaultTimeout: 10_000,
    });

  async function shot(page: Page, name: string) {
    if (screenshotDir)
      await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
  }

  /** Pays a test-mode checkout from the API side (used where the browser flow is not the point). */
  async function subscribeByApi(owner: SignedInOwner, tier: "pro" | "agency") {
    const checkout = await owner.agent.post("/api/subscription/create-checkout", {
      tier,
      period: "monthly",
    });
    const session = new URL(checkout.body.url).searchParams.get("session")!;
    const paid = await owner.agent.request("POST", "/billing/test-checkout", {
      body: new URLSearchParams({ session, outcome: "pay" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(paid.status).toBe(303);
  }

  const openAccountSettings = async (page: Page) => {
    await page.getByRole("button", { name: "Account settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Account Settings" });
    await dialog.getByRole("tab", { name: "Account" }).click();
    return dialog;
  };

  it("a free owner at the limit upgrades to agency, adds a client, brands the portal, and the client sees it", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const op = await pageAs(owner.agent);

    await op.goto("/");
    const addClient = op.getByRole("button", { name: "Add Client (Limit reached)" });
    // aria-disabled (still focusable): its click explains the limit.
    await addClient.click({ force: true });
    await expectToast(op, "Client limit reached");
    await op.keyboard.press("Escape");

    // The pricing page, straight from the spec.
    await op.goto("/pricing");
    await op.getByRole("link", { name: "Back to Dashboard" }).waitFor();
    const free = op.getByRole("region", { name: "Free" });
    await expect
      .poll(() => free.getByRole("button", { name: "Current Plan" }).isDisabled())
      .toBe(true);
    await op.getByRole("button", { name: "Annual" }).click();
    await op.getByText("Save up to $60/year").waitFor();
    const agency = op.getByRole("region", { name: "Agency" });
    await agency.getByText("Most Popular").waitFor();
    await agency.getByText("$300").waitFor();
    await op.getByRole("heading", { name: "Questions?" }).waitFor();
    await shot(op, "pricing");
    await op.getByRole("button", { name: "Monthly" }).click();
    await agency.getByRole("button", { name: "Upgrade" }).click();

    // /subscribe hands the browser to the test-mode checkout.
    await expectPath(op, "/billing/test-checkout");
    await op.getByText("TEST MODE: no real payment is taken").waitFor();
    await op.getByRole("heading", { name: "Test checkout: Agency plan" }).waitFor();
    await shot(op, "test-checkout");
    await op.getByRole("button", { name: "Pay $30 (test)" }).click();

    await expectToast(op, "Payment Successful");
    await expectToast(op, "You are subscribed!");
    expect(new URL(op.url()).search).toBe("");
    await op.getByText("Agency plan").waitFor();

    // A second client now fits.
    await op.getByRole("button", { name: "Add Client", exact: true }).click();
    const addDialog = op.getByRole("dialog", { name: "Add New Client" });
    await addDialog.getByLabel("Client name").fill("Second Client");
    await addDialog.getByLabel("Client email").fill(uniqueEmail("second"));
    await addDialog.getByRole("button", { name: "Add Client" }).click();
    await expectToast(op, "Client added successfully!");
    // The invite link chooser follows; close it before going on.
    const chooser = op.getByRole("dialog", { name: "Share the invite link" });
    await chooser.getByRole("button", { name: "Done" }).click();
    await chooser.waitFor({ state: "detached" });

    // Logo and colours, with a warning for text that cannot be read on its background.
    const settings = await openAccountSettings(op);
    const logo = await sharp({
      create: { width: 240, height: 80, channels: 3, background: "#7a1fa2" },
    })
      .png()
      .toBuffer();
    await settings
      .locator('input[type="file"]')
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logo });
    await expectToast(op, "Company logo updated successfully");
    await settings.getByRole("img", { name: "Your company logo" }).waitFor();
    await settings.getByLabel("Primary color", { exact: true }).fill("#7a1fa2");
    await settings.getByLabel("Background color", { exact: true }).fill("#fff8e1");
    await settings.getByLabel("Text color", { exact: true }).fill("#f0e0c0");
    await settings.getByText("Text and background are too close to read").waitFor();
    await settings.getByRole("button", { name: "Save Colors" }).scrollIntoViewIfNeeded();
    await shot(op, "contrast-warning");
    await settings.getByLabel("Text color", { exact: true }).fill("#2b1a00");
    await settings
      .getByText("Text and background are too close to read")
      .waitFor({ state: "detached" });
    await settings.getByRole("button", { name: "Save Colors" }).click();
    await expectToast(op, "Color scheme updated successfully");
    await shot(op, "branding-settings");

    // The client sees the logo and the colours.
    const cp = await pageAs(client.agent);
    await cp.goto(`/client/${client.id}`);
    await cp.getByRole("img", { name: "Company logo" }).waitFor();
    await cp.getByText("Welcome,").waitFor();
    const portal = cp.locator(".portal");
    await expect
      .poll(() =>
        portal.evaluate((el) => getComputedStyle(el).getPropertyValue("--brand-primary").trim()),
      )
      .toBe("#7a1fa2");
    const header = cp.locator(".portal-header");
    expect(await header.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      "rgb(255, 248, 225)",
    );
    expect(await header.evaluate((el) => getComputedStyle(el).color)).toBe("rgb(43, 26, 0)");
    await shot(cp, "branded-portal");
  });

  it("a failed renewal shows the red banner with the downgrade date", async () => {
    const owner = await signUpOwner(server);
    await subscribeByApi(owner, "pro");
    const op = await pageAs(owner.agent);
    await op.goto("/billing/test-mode");
    await op.getByText("TEST MODE").first().waitFor();
    await op.getByRole("button", { name: "Renewal payment fails" }).click();
    await expectPath(op, "/");
    const banner = op
      .getByRole("alert")
      .filter({ hasText: "Payment failed! Your account will be downgraded on" });
    await banner.waitFor();
    await banner.getByRole("link", { name: "Update Payment" }).waitFor();
    await shot(op, "payment-failed-banner");
  });

  it("cancellation flow: validation, retention offer, pause, then cancel", async () => {
    const owner = await signUpOwner(server);
    await subscribeByApi(owner, "agency");
    const op = await pageAs(owner.agent);
    await op.goto("/");
    const settings = await openAccountSettings(op);
    await settings.getByRole("button", { name: "Cancel Subscription" }).click();

    const flow = op.getByRole("dialog", { name: "Cancel Subscription" });
    await flow.getByRole("button", { name: "Continue" }).click();
    await expectToast(op, "Please select a reason");
    await expectToast(op, "We need to know why you're leaving to help us improve.");
    await flow.getByLabel("Other").check();
    await flow.getByRole("button", { name: "Continue" }).click();
    await expectToast(op, "Please provide details");
    await flow.getByLabel("Please tell us more").fill("We are merging with another studio");
    await shot(op, "cancel-reason");
    await flow.getByRole("button", { name: "Continue" }).click();

    await flow.getByText("Before you go, would one of these help?").waitFor();
    await flow.getByText("Take $20 off your next bill").waitFor();
    await flow.getByRole("button", { name: "Continue" }).click();
    await expectToast(op, "Please select an option");
    await flow.getByLabel("Pause my account").check();
    await flow.getByLabel("2 months").check();
    await shot(op, "cancel-retention");
    await flow.getByRole("button", { name: "Continue" }).click();
    await expectToast(op, "Account Paused");
    await flow.waitFor({ state: "detached" });
    await settings.getByText(/^Paused until /).waitFor();

    // Keep Account closes the flow and resets it.
    await settings.getByRole("button", { name: "Cancel Subscription" }).click();
    await flow.getByLabel("It's too expensive").check();
    await flow.getByRole("button", { name: "Keep Account" }).click();
    await expectToast(op, "Great Choice!");
    await flow.waitFor({ state: "detached" });
    await settings.getByRole("button", { name: "Cancel Subscription" }).click();
    expect(await flow.getByLabel("It's too expensive").isChecked()).toBe(false);

    await flow.getByLabel("I no longer need it").check();
    await flow.getByRole("button", { name: "Continue" }).click();
    await flow.getByLabel("Cancel my subscription").check();
    await flow.getByRole("button", { name: "Continue" }).click();
    await expectToast(op, "Subscription Canceled");
    await settings.getByText(/^Cancels on /).waitFor();
    await settings.getByRole("button", { name: "Keep Subscription" }).waitFor();
    expect((await owner.agent.get("/api/subscription/status")).body).toMatchObject({
      accountTier: "agency",
      cancelAtPeriodEnd: true,
    });
  });
});
