import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { minimalPdf } from "../support/pdf";
import { brandShades, parseHex } from "../../shared/contrast";
import { addClient, addJoinedClient, type JoinedClient, setTier } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { expectPath, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

/** Set SCREENSHOT_DIR to keep a screenshot of every page checked. */
const screenshotDir = process.env.SCREENSHOT_DIR;

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 375, height: 667 };

describe.skipIf(!browserAvailable)("accessibility: axe-core WCAG 2.2 A/AA on every page", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const pageAs = (agent?: { cookieHeader: string }, viewport = DESKTOP): Promise<Page> =>
    openPage(browser, server.url, agent, { viewport, defaultTimeout: 10_000 });

  /** Checks the page as it is now, keeping a screenshot when asked to. */
  async function check(page: Page, label: string) {
    await expectNoSeriousAxeViolations(page, label);
    // After the check, which waits for animations to end.
    if (screenshotDir) {
      const name = label.replaceAll(/[^a-z0-9]+/gi, "-").toLowerCase();
      await page.screenshot({ path: `${screenshotDir}/axe-${name}.png` });
    }
  }

  /** An owner with a client who joined, and a conversation holding messages, an image and a PDF awaiting approval. */
  async function conversationWithFiles(): Promise<{ owner: SignedInOwner; client: JoinedClient }> {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    await owner.agent.post(`/api/clients/${client.id}/messages`, {
      content: "Hi Carla, the first draft is attached.",
    });
    await client.agent.post(`/api/clients/${client.id}/messages`, {
      content: "Thanks! I'll have a look today.",
    });
    const pdf = new FormData();
    pdf.append("file", new Blob([new Uint8Array(minimalPdf())]), "Brief.pdf");
    pdf.append("requiresFeedback", "true");
    const sent = await owner.agent.request("POST", `/api/clients/${client.id}/upload`, {
      body: pdf,
    });
    expect(sent.status).toBe(201);
    return { owner, client };
  }

  /** An owner who paid a test-mode checkout (as tests/browser/billing.test.ts does). */
  async function paidOwner(tier: "pro" | "agency"): Promise<SignedInOwner> {
    const owner = await signUpOwner(server, "Olivia Owner");
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
    return owner;
  }

  it("the signed-out pages: sign in, sign up, verify, reset, not found", async () => {
    const page = await pageAs();
    await page.goto("/auth");
    await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
    await check(page, "auth sign in");
    await page.getByRole("tab", { name: "Sign Up" }).click();
    await page.getByRole("button", { name: "Create Account" }).waitFor();
    await check(page, "auth sign up");
    await page.getByRole("tab", { name: "Sign In" }).click();
    await page.getByRole("button", { name: "Forgot password?" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Send reset code" }).waitFor();
    await check(page, "forgot password dialog");

    await page.goto("/verify-email?email=bea%40example.test");
    await page.getByRole("button", { name: "Verify Email" }).waitFor();
    await check(page, "verify email");

    await page.goto("/reset-password");
    await page.getByRole("heading", { name: "Reset Your Password" }).waitFor();
    await check(page, "reset password without a token");
    await page.goto("/reset-password?token=123456&email=bea%40example.test");
    await page.getByLabel("Reset code").fill("123456");
    await page.getByLabel("Email address").fill("bea@example.test");
    await check(page, "reset password with a token");

    await page.goto("/no-such-page");
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    await check(page, "not found");

    await page.goto("/pricing");
    await page.getByRole("region", { name: "Agency" }).waitFor();
    await check(page, "pricing signed out");
  });

  it("the dashboard empty and with clients, the add client dialog, pricing", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const page = await pageAs(owner.agent);
    await page.goto("/");
    await page.getByRole("heading", { name: "Let's keep it simple." }).waitFor();
    await check(page, "dashboard empty");

    await page.getByRole("button", { name: "Add Client" }).first().click();
    await page.getByRole("dialog").getByLabel("Client name").waitFor();
    await check(page, "add client dialog");
    await page.keyboard.press("Escape");

    const added = await addClient(owner, { name: "Carla Client" });
    await page.reload();
    await page.getByText("Carla Client").first().waitFor();
    await check(page, "dashboard with clients");

    await page.goto(`/?client=${added.id}`);
    await page.getByRole("button", { name: "Delete Carla Client" }).click();
    await page.getByRole("dialog", { name: "Delete Carla Client?" }).waitFor();
    await check(page, "delete client dialog");
    await page.keyboard.press("Escape");

    // The owner on a phone: the client list, then the conversation.
    const phone = await pageAs(owner.agent, PHONE);
    await phone.goto("/");
    await phone.getByText("Carla Client").first().waitFor();
    await check(phone, "dashboard with clients (375 px)");
    await phone.goto(`/?client=${added.id}`);
    await phone.getByRole("log").getByText("No messages yet").waitFor();
    await check(phone, "owner conversation (375 px)");

    await page.goto("/pricing");
    await page.getByRole("region", { name: "Agency" }).waitFor();
    await check(page, "pricing signed in");
  });

  it("a conversation with files and an approval, its attachments, the upload dialog", async () => {
    const { owner, client } = await conversationWithFiles();
    const page = await pageAs(owner.agent);
    await page.goto(`/?client=${client.id}`);
    const log = page.getByRole("log");
    await log.getByText("Feedback Required").waitFor();
    await log.getByText("Thanks! I'll have a look today.").waitFor();
    await check(page, "owner conversation with files");

    await page.getByRole("button", { name: "Upload File" }).click();
    await page.getByRole("dialog", { name: "Upload File" }).waitFor();
    await check(page, "upload file dialog");
    await page.keyboard.press("Escape");

    await page.getByRole("tab", { name: "Attachments" }).click();
    await page.getByRole("tabpanel").getByText("Brief.pdf").first().waitFor();
    await check(page, "owner attachments");
  });

  it("each Account Settings tab and the cancellation dialog (a paid agency owner)", async () => {
    const owner = await paidOwner("agency");

    const page = await pageAs(owner.agent);
    await page.goto("/");
    await page.getByRole("button", { name: "Account settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Account Settings" });
    await dialog.getByLabel("Full name").waitFor();
    await check(page, "settings profile");
    for (const tab of [
      "Account",
      "Notifications",
      "Password",
      "Team",
      "Saved replies",
      "Deleted clients",
    ]) {
      await dialog.getByRole("tab", { name: tab }).click();
      await dialog.getByRole("tabpanel", { name: tab }).waitFor();
      if (tab === "Account")
        await dialog.getByRole("button", { name: "Cancel Subscription" }).waitFor();
      if (tab === "Team") {
        await dialog.getByRole("list", { name: "Team members" }).waitFor();
        await dialog.getByRole("region", { name: "Invite a team member" }).waitFor();
      }
      // Issue 28's tabs, each in its empty state.
      if (tab === "Saved replies") await dialog.getByText("No saved replies yet").waitFor();
      if (tab === "Deleted clients")
        await dialog.getByText("No deleted clients to restore.", { exact: false }).waitFor();
      await check(page, `settings ${tab.toLowerCase()}`);
    }
    // The Team tab with a pending invite, and that invite's page, signed out (issue 26).
    const invited = await owner.agent.post("/api/team/members", {
      email: "new.member@example.test",
      role: "member",
    });
    expect(invited.status).toBe(201);
    await page.reload();
    await page.getByRole("button", { name: "Account settings" }).click();
    await dialog.getByRole("tab", { name: "Team" }).click();
    await dialog.getByRole("list", { name: "Pending invites" }).waitFor();
    await check(page, "settings team with an invite");
    const joinPage = await pageAs(undefined, { width: 360, height: 740 });
    await joinPage.goto(new URL(invited.body.inviteUrl).pathname);
    await joinPage.getByRole("link", { name: "Create your account" }).waitFor();
    await check(joinPage, "team invite page (360 px)");
    await joinPage.close();

    await dialog.getByRole("tab", { name: "Account" }).click();
    await dialog.getByRole("button", { name: "Cancel Subscription" }).click();
    const flow = page.getByRole("dialog", { name: "Cancel Subscription" });
    await flow.getByLabel("Other").check();
    await flow.getByLabel("Please tell us more").fill("Merging with another studio");
    await check(page, "cancellation dialog, reason");
    await flow.getByRole("button", { name: "Continue" }).click();
    await flow.getByText("Before you go, would one of these help?").waitFor();
    await flow.getByLabel("Pause my account").check();
    await check(page, "cancellation dialog, retention offer");
  });

  it("a failed payment: the dashboard's banner and pricing", async () => {
    const owner = await paidOwner("pro");
    const page = await pageAs(owner.agent);
    await page.goto("/billing/test-mode");
    await page.getByRole("button", { name: "Renewal payment fails" }).click();
    await expectPath(page, "/");
    await page.getByRole("alert").filter({ hasText: "Payment failed!" }).waitFor();
    await check(page, "dashboard with a failed payment");
    await page.goto("/pricing");
    await page.getByRole("region", { name: "Agency" }).waitFor();
    await check(page, "pricing after a failed payment");
  });

  it("every portal tab at 375x667, with a file waiting for approval", async () => {
    const { client } = await conversationWithFiles();
    const page = await pageAs(client.agent, PHONE);
    await page.goto(`/client/${client.id}`);
    const log = page.getByRole("log");
    await log.getByRole("button", { name: "Approve" }).waitFor();
    await check(page, "portal conversation (375 px)");
    await page.getByRole("tab", { name: "Attachments" }).click();
    await page.getByRole("tabpanel").getByText("Brief.pdf").first().waitFor();
    await check(page, "portal attachments (375 px)");
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByRole("tabpanel").getByRole("button").first().waitFor();
    await check(page, "portal settings (375 px)");
  });

  it("a message from the other side is announced; the history, older pages and your own are not", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    for (let index = 1; index <= 55; index += 1) {
      const answer = await owner.agent.post(`/api/clients/${client.id}/messages`, {
        content: `History ${index}`,
      });
      expect(answer.status).toBe(201);
    }
    const page = await pageAs(client.agent, PHONE);
    await page.goto(`/client/${client.id}`);
    const log = page.getByRole("log");
    const status = page
      .getByRole("region", { name: "Conversation with Olivia Owner" })
      .getByRole("status");
    await log.getByText("History 55", { exact: true }).waitFor();
    expect(await status.getAttribute("aria-live")).toBe("polite");
    expect(await status.textContent()).toBe("");

    // An older page loads above: not news.
    await log.evaluate((area) => area.scrollTo({ top: 0 }));
    await log.getByText("History 1", { exact: true }).waitFor();
    expect(await status.textContent()).toBe("");

    await owner.agent.post(`/api/clients/${client.id}/messages`, { content: "Are you there?" });
    await expect
      .poll(() => status.textContent())
      .toBe("New message from Olivia Owner: Are you there?");

    await page.getByRole("textbox", { name: "Message", exact: true }).fill("Yes, reading now.");
    await page.keyboard.press("Enter");
    await log.getByText("Yes, reading now.").waitFor();
    expect(await status.textContent()).toBe("New message from Olivia Owner: Are you there?");
  });

  it("toasts are announced: errors assertively, other notices politely", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const visitor = await pageAs();
    await visitor.goto("/auth");
    await visitor.getByLabel("Email", { exact: true }).fill(owner.email);
    await visitor.getByLabel("Password", { exact: true }).fill("not-the-password");
    await visitor.getByRole("button", { name: "Sign In", exact: true }).click();
    // Radix Toast speaks each notice through its own status element: "assertive" for
    // foreground toasts (ui/toast.tsx makes the destructive ones foreground).
    await visitor
      .locator('[role="status"][aria-live="assertive"]')
      .filter({ hasText: "Login failed" })
      .waitFor();

    const page = await pageAs(owner.agent);
    await page.goto("/");
    await page.getByRole("button", { name: "Account settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Account Settings" });
    await dialog.getByLabel("Company name").fill("Owner Studio");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await page
      .locator('[role="status"][aria-live="polite"]')
      .filter({ hasText: "Profile updated successfully" })
      .waitFor();
  });

  it("a branded portal: an agency owner's light primary gets readable shades too", async () => {
    const { owner, client } = await conversationWithFiles();
    await setTier(owner.id, "agency");
    const scheme = { primaryColor: "#ffb000", backgroundColor: "#fffdf5", textColor: "#1f2937" };
    const saved = await owner.agent.patch("/api/user/color-scheme", scheme);
    expect(saved.status).toBe(200);
    const page = await pageAs(client.agent, PHONE);
    await page.goto(`/client/${client.id}`);
    await page.getByRole("log").getByRole("button", { name: "Approve" }).waitFor();
    const { primaryStrong } = brandShades(scheme);
    expect(
      await page
        .getByRole("log")
        .getByRole("button", { name: "Approve" })
        .evaluate((button) => getComputedStyle(button).backgroundColor),
    ).toBe(`rgb(${parseHex(primaryStrong)!.join(", ")})`);
    await check(page, "branded portal conversation (375 px)");
    await page.getByRole("tab", { name: "Settings" }).click();
    await page.getByRole("tabpanel").getByRole("button").first().waitFor();
    await check(page, "branded portal settings (375 px)");
  });

  it("the portal's signed-out and sign-in-link pages (375x667)", async () => {
    const page = await pageAs(undefined, PHONE);
    await page.goto("/client/signed-out");
    await page.getByRole("heading", { name: "You're signed out" }).waitFor();
    await check(page, "portal signed out");
    await page.goto("/client/sign-in?token=not-a-real-token");
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await check(page, "portal sign-in link");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Sign-in link not valid" }).waitFor();
    await check(page, "portal sign-in link not valid");
    await page.goto("/client");
    await expectPath(page, "/client");
    await page.getByRole("heading").first().waitFor();
    await check(page, "portal without a session");
  });
});
