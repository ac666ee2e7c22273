import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { expectPath, expectToast, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

/**
 * The owner's open dashboard stays live across a password change (the change ends every
 * session and gives this browser a new one), and a page whose session really ended (the
 * password was changed in another browser) goes to sign-in rather than sitting there dead.
 */
describe.skipIf(!browserAvailable)("the live connection across a password change", () => {
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

  /** Resolves when `page` opens its next live connection (a socket to /ws). */
  const nextSocket = (page: Page) =>
    page.waitForEvent("websocket", { predicate: (ws) => new URL(ws.url()).pathname === "/ws" });

  it("keeps the page that changed the password live, and sends the other browser to sign in", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    await client.agent.post(`/api/clients/${client.id}/messages`, { content: "Hello there" });
    // The same owner signed in on a second browser: its session ends with the change.
    const elsewhere = server.agent();
    expect(
      (await elsewhere.post("/api/login", { username: owner.email, password: owner.password }))
        .status,
    ).toBe(200);

    const viewport = { width: 1280, height: 800 };
    const page = await openPage(browser, server.url, owner.agent, {
      viewport,
      defaultTimeout: 10_000,
    });
    const other = await openPage(browser, server.url, elsewhere, {
      viewport,
      defaultTimeout: 10_000,
    });
    for (const each of [page, other]) {
      const opened = nextSocket(each);
      await each.goto(`/?client=${client.id}`);
      await log(each).getByText("Hello there").waitFor();
      await opened;
    }

    await page.getByRole("button", { name: "Account settings" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("tab", { name: "Password" }).click();
    await dialog.getByLabel("Current password").fill(owner.password);
    await dialog.getByLabel("New password", { exact: true }).fill("a brand new password");
    await dialog.getByLabel("Confirm new password").fill("a brand new password");
    // This browser's old socket closes a few seconds after the change (its new cookie has
    // arrived by then) and reopens signed in anew.
    const reopened = nextSocket(page);
    await dialog.getByRole("button", { name: "Update Password" }).click();
    await expectToast(page, "Password updated successfully");
    await dialog.getByRole("button", { name: "Close" }).click();
    await reopened;

    // This page is live on its new session: the client's next message shows without a reload.
    await client.agent.post(`/api/clients/${client.id}/messages`, { content: "Got your note" });
    await log(page).getByText("Got your note").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await page.locator(".connection-banner p").count()).toBe(0);

    // The other browser's session is gone: it shows the sign-in page.
    await expectPath(other, "/auth");
    await other.getByRole("button", { name: "Sign In", exact: true }).waitFor();
  }, 60_000);
});
