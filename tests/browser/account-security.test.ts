import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { User } from "../../server/models";
import { browserAvailable, launchBrowser } from "../support/browser";
import type { TestClock } from "../support/clock";
import { signUpOwner } from "../support/factories";
import { expectPath, expectToast, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

// Issue 23: signing out everywhere else from Settings, and a Google-only account told what
// confirms its first password (policies/recent-sign-in.ts).

describe.skipIf(!browserAvailable)("account security in the browser", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openAccountSettings(page: Awaited<ReturnType<typeof openPage>>) {
    await page.goto("/");
    await page.getByRole("button", { name: "Settings" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("tab", { name: "Account" }).click();
    return dialog;
  }

  it("signs out every other browser with the password, and keeps this one", async () => {
    const owner = await signUpOwner(server);
    const elsewhere = server.agent();
    await elsewhere.post("/api/login", { username: owner.email, password: owner.password });
    const other = await openPage(browser, server.url, elsewhere, { defaultTimeout: 10_000 });
    await other.goto("/");
    await other.getByRole("heading", { name: "Let's keep it simple." }).waitFor();

    const page = await openPage(browser, server.url, owner.agent, { defaultTimeout: 10_000 });
    const settings = await openAccountSettings(page);
    await settings.getByRole("button", { name: "Sign out everywhere else" }).click();
    const confirm = page.getByRole("dialog", { name: "Sign out everywhere else?" });
    await confirm.getByLabel("Your password").fill("not my password");
    await confirm.getByRole("button", { name: "Sign out everywhere else" }).click();
    await expectToast(page, "Password is incorrect");
    expect((await elsewhere.get("/api/user")).status).toBe(200);

    await confirm.getByLabel("Your password").fill(owner.password);
    await confirm.getByRole("button", { name: "Sign out everywhere else" }).click();
    await expectToast(page, "Signed out everywhere else");
    await confirm.waitFor({ state: "detached" });

    // The other browser is signed out; this one goes on.
    await other.reload();
    await expectPath(other, "/auth");
    await page.reload();
    await page.getByRole("heading", { name: "Let's keep it simple." }).waitFor();
    await other.context().close();
    await page.context().close();
  });

  it("tells a Google-only account how to confirm, and refuses an old sign-in", async () => {
    const owner = await signUpOwner(server);
    await User.query(server.db).patch({ passwordHash: null }).where("id", owner.id);
    (server.clock as TestClock).advanceMinutes(11);
    const page = await openPage(browser, server.url, owner.agent, { defaultTimeout: 10_000 });
    await page.goto("/");
    await page.getByRole("button", { name: "Settings" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("tab", { name: "Password" }).click();
    await dialog
      .getByText("You can add a password within 10 minutes of signing in with Google")
      .waitFor();
    expect(await dialog.getByLabel("Current password").count()).toBe(0);
    await dialog.getByLabel("New password", { exact: true }).fill("a new password");
    await dialog.getByLabel("Confirm new password").fill("a new password");
    await dialog.getByRole("button", { name: "Update Password" }).click();
    await expectToast(page, "Failed to update password");
    await expectToast(
      page,
      "For your security, sign in with Google again, then set your password within 10 minutes",
    );
    await page.context().close();
  });
});
