import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { signUpOwner, uniqueEmail } from "../support/factories";
import { type TestServer, startTestServer } from "../support/server";
import { expectPath, expectToast, expectValue } from "../support/page";
import { codeFrom } from "../support/smtp";

describe.skipIf(!browserAvailable)("accounts in the browser", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.url });
    // Fail at the step that did not happen, well before the test's own timeout.
    context.setDefaultTimeout(10_000);
    return context.newPage();
  }

  async function signInWith(page: Page, email: string, password: string) {
    await page.goto("/auth");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
  }

  it("signs up, verifies with the code from the mail, and lands on the dashboard", async () => {
    const page = await newPage();
    const email = uniqueEmail("browser");
    await page.goto("/");
    await expectPath(page, "/auth");

    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.getByLabel("Full name").fill("Bea Browser");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("secret123");
    await page.getByLabel("Confirm password").fill("secret123");
    await page.getByRole("button", { name: "Create Account" }).click();

    await expectToast(page, "Please check your email for a verification code");
    await expectPath(page, "/verify-email");
    const code = codeFrom(await server.smtp.waitFor(email));
    await expectValue(page.getByLabel("Email address"), email);
    await page.getByLabel("Verification code").fill(code);
    await page.getByRole("button", { name: "Verify Email" }).click();

    await expectToast(page, "Email verified successfully!");
    await page.getByRole("heading", { name: "Let's keep it simple." }).waitFor();
    await page.getByText("Pick a client to start communicating.").waitFor();
    await page.getByRole("link", { name: "Upgrade", exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await page.getByText("Bea Browser").first().waitFor();
  });

  it("shows Login failed for a wrong password", async () => {
    const owner = await signUpOwner(server);
    const page = await newPage();
    await signInWith(page, owner.email, "not-the-password");
    await expectToast(page, "Login failed");
    await expectToast(page, "Invalid email or password");
    expect(new URL(page.url()).pathname).toBe("/auth");
  });

  it("resets a forgotten password and signs in with the new one", async () => {
    const owner = await signUpOwner(server);
    const page = await newPage();
    await page.goto("/auth");
    await page.getByRole("button", { name: "Forgot password?" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Email address").fill(owner.email);
    await dialog.getByRole("button", { name: "Send reset code" }).click();

    await expectPath(page, "/reset-password");
    await page.getByRole("heading", { name: "Reset Your Password" }).waitFor();
    const token = codeFrom(
      await server.smtp.waitFor(owner.email, (mail) => mail.subject.includes("reset")),
    );
    await expectValue(page.getByLabel("Email address"), owner.email);
    await page.getByLabel("Reset code").fill(token);
    await page.getByLabel("New password", { exact: true }).fill("fresh-password");
    await page.getByLabel("Confirm new password").fill("fresh-password");
    await page.getByRole("button", { name: "Reset Password" }).click();

    await expectToast(page, "Password reset successful");
    await expectPath(page, "/auth");
    await signInWith(page, owner.email, "fresh-password");
    await page.getByRole("heading", { name: "Let's keep it simple." }).waitFor();
  });

  it("opens Forgot password with the email typed on Sign In, and sends the code to it", async () => {
    const owner = await signUpOwner(server);
    const page = await newPage();
    await page.goto("/auth");
    await page.getByLabel("Email", { exact: true }).fill(owner.email);
    await page.getByRole("button", { name: "Forgot password?" }).click();
    const dialog = page.getByRole("dialog");
    await expectValue(dialog.getByLabel("Email address"), owner.email);

    // Closed and the address changed: the dialog follows the Sign In form again.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    const other = uniqueEmail("other");
    await page.getByLabel("Email", { exact: true }).fill(other);
    await page.getByRole("button", { name: "Forgot password?" }).click();
    await expectValue(dialog.getByLabel("Email address"), other);
    await dialog.getByLabel("Email address").fill(owner.email);
    await dialog.getByRole("button", { name: "Send reset code" }).click();
    await expectPath(page, "/reset-password");
    await server.smtp.waitFor(owner.email, (mail) => mail.subject.includes("reset"));
  });

  it("keeps settings edits after a reload", async () => {
    const owner = await signUpOwner(server);
    const page = await newPage();
    await signInWith(page, owner.email, owner.password);
    await page.getByRole("heading", { name: "Let's keep it simple." }).waitFor();

    await page.getByRole("button", { name: "Account settings" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Full name").fill("Renamed Owner");
    await dialog.getByLabel("Company name").fill("Renamed Studio");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Profile updated successfully");

    await dialog.getByRole("tab", { name: "Notifications" }).click();
    await dialog.getByLabel("Notification delay (minutes)").fill("25");
    await dialog.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Notification settings updated successfully");

    await page.reload();
    await page.getByRole("heading", { name: "Let's keep it simple." }).waitFor();
    await page.getByText("Renamed Owner").first().waitFor();
    await page.getByRole("button", { name: "Account settings" }).click();
    await expectValue(page.getByRole("dialog").getByLabel("Company name"), "Renamed Studio");
    await page.getByRole("dialog").getByRole("tab", { name: "Notifications" }).click();
    await expectValue(page.getByRole("dialog").getByLabel("Notification delay (minutes)"), "25");
  });
});
