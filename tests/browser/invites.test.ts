import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addClient, addJoinedClient } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { expectPath, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

const PHONE = { width: 375, height: 740 };

describe.skipIf(!browserAvailable)("invite links in the browser", () => {
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

  it("never swap a signed-in owner: the page says who is signed in, then signs out and opens the invite", async () => {
    const alice = await signUpOwner(server, "Alice Able");
    const bob = await signUpOwner(server, "Bob Baker");
    const added = await addClient(alice, { name: "Carla Client" });
    await alice.agent.post(`/api/clients/${added.id}/messages`, { content: "Welcome, Carla!" });

    const page = await openPage(browser, server.url, bob.agent, { viewport: PHONE });
    await page.goto(`/invite/${added.inviteToken}`);
    await page.getByRole("heading", { name: "You're already signed in" }).waitFor();
    await page
      .getByText(
        `You are signed in as Bob Baker (${bob.email}). This invite link is for another account: sign out to open it.`,
      )
      .waitFor();
    await page.getByRole("link", { name: "Go to your dashboard" }).waitFor();
    // Nothing of the invite's client or owner.
    const content = await page.content();
    for (const secret of [added.email, "Carla", alice.email, "Alice"]) {
      expect(content).not.toContain(secret);
    }
    expect((await bob.agent.get("/api/user")).body).toMatchObject({ id: bob.id, role: "owner" });
    await expectNoSeriousAxeViolations(page, `invite conflict: ${page.url()}`);

    await page.getByRole("button", { name: "Sign out and open this invite" }).click();
    await expectPath(page, `/client/${added.id}`);
    await log(page).getByText("Welcome, Carla!").waitFor();
    await page.getByText("Welcome, Carla Client").waitFor();
    // Bob's session (this browser's) is over.
    expect((await bob.agent.get("/api/user")).status).toBe(401);
  });

  it("never swap a signed-in client of another conversation, who can go back to theirs", async () => {
    const alice = await signUpOwner(server, "Alice Able");
    const bob = await signUpOwner(server, "Bob Baker");
    const ofAlice = await addJoinedClient(server, alice, { name: "Dana Doe" });
    const ofBob = await addClient(bob, { name: "Eve Example" });

    const page = await openPage(browser, server.url, ofAlice.agent);
    await page.goto(`/invite/${ofBob.inviteToken}`);
    await page
      .getByText(`You are signed in as Dana Doe (${ofAlice.email}).`, { exact: false })
      .waitFor();
    expect(await page.content()).not.toContain("Eve Example");
    await page.getByRole("link", { name: "Back to your conversation" }).click();
    await expectPath(page, `/client/${ofAlice.id}`);
    await log(page).waitFor();
    // The invite is still live for its own client.
    expect((await server.agent().post(`/api/invite/${ofBob.inviteToken}`)).status).toBe(200);
  });

  it("a new invite link says the client is signed out everywhere, and shuts their open page out at once", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    await owner.agent.post(`/api/clients/${client.id}/messages`, { content: "Hello there" });

    const cp = await openPage(browser, server.url, client.agent, { viewport: PHONE });
    await cp.goto(`/client/${client.id}`);
    await log(cp).getByText("Hello there").waitFor();

    const op = await openPage(browser, server.url, owner.agent);
    await op.goto(`/?client=${client.id}`);
    await op.getByRole("button", { name: "New invite link" }).click();
    const dialog = op.getByRole("dialog", { name: "Create a new invite link?" });
    await dialog
      .getByText(
        "Carla Client will be signed out on every device at once and will need the new link to get back into your conversation.",
        { exact: false },
      )
      .waitFor();
    await expectNoSeriousAxeViolations(op, "new invite link dialog");
    await dialog.getByRole("button", { name: "Create new link" }).click();
    const standard = op
      .getByRole("dialog", { name: "Share the invite link" })
      .getByRole("textbox", { name: "Standard link" });
    await standard.waitFor();
    const newLink = await standard.inputValue();

    // The client's open page leaves the conversation without a reload.
    await cp.getByRole("heading", { name: "Sign in to your conversation" }).waitFor();
    expect(await log(cp).count()).toBe(0);
    expect((await client.agent.get("/api/user")).status).toBe(401);

    // The new link brings them back.
    await cp.goto(newLink);
    await expectPath(cp, `/client/${client.id}`);
    await log(cp).getByText("Hello there").waitFor();
  });
});
