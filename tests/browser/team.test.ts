import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { setTier } from "../support/conversations";
import { signUpOwner, uniqueEmail } from "../support/factories";
import { expectPath, expectToast, keepScreenshot, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";
import { codeFrom } from "../support/smtp";

/** Set SCREENSHOT_DIR to keep a screenshot of the tab at each width. */
const screenshotDir = process.env.SCREENSHOT_DIR;

/** Nothing in the list spills out of its row (an ellipsis is on purpose). */
const overflows = (page: Page, listName: string) =>
  page
    .getByRole("list", { name: listName })
    .evaluate((list) =>
      [...list.querySelectorAll("li *")].some(
        (el) =>
          el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).textOverflow !== "ellipsis",
      ),
    );

// Issue 26: the owner's workspace and its members, in Account Settings, and the join page.
describe.skipIf(!browserAvailable)("the Team tab", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const [label, viewport] of [
    ["desktop", { width: 1280, height: 860 }],
    ["phone", { width: 375, height: 667 }],
  ] as const) {
    it(`lists the owner as the workspace's owner (${label}), opened from a link`, async () => {
      const owner = await signUpOwner(server, "Olivia Owner");
      const page = await openPage(browser, server.url, owner.agent, { viewport });
      await page.goto("/?settings=team");
      const dialog = page.getByRole("dialog", { name: "Account Settings" });
      const panel = dialog.getByRole("tabpanel", { name: "Team" });
      const members = panel.getByRole("list", { name: "Team members" });
      await members.waitFor();
      const rows = members.getByRole("listitem");
      expect(await rows.count()).toBe(1);
      const row = rows.first();
      expect(await row.textContent()).toBe(`OOOlivia Owner (you)${owner.email}Owner`);
      expect(await row.getByText("Owner", { exact: true }).isVisible()).toBe(true);
      // The chosen tab is in view (on a phone the five tabs wrap instead of scrolling it away).
      const tabBox = await dialog.getByRole("tab", { name: "Team" }).boundingBox();
      const dialogBox = await dialog.boundingBox();
      expect(tabBox!.x + tabBox!.width).toBeLessThanOrEqual(dialogBox!.x + dialogBox!.width);
      expect(await overflows(page, "Team members")).toBe(false);
      // On the free plan the tab says what a team takes instead of offering a form that fails.
      await panel.getByText(/Team members are part of the Agency plan: 3 seats/).waitFor();
      expect(await panel.getByRole("link", { name: "View plans" }).isVisible()).toBe(true);
      expect(await panel.getByRole("textbox").count()).toBe(0);
      if (screenshotDir) await page.screenshot({ path: `${screenshotDir}/team-${label}.png` });
      await page.close();
    });
  }

  it("an Agency owner invites; the invitee signs up from the mailed link and joins; the owner changes their role and removes them", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "agency");
    await owner.agent.patch("/api/user/profile", {
      fullName: "Olivia Owner",
      companyName: "Ortega Studio",
    });
    const address = uniqueEmail("mia");

    // The owner invites from the Team tab.
    const ownerPage = await openPage(browser, server.url, owner.agent, {
      viewport: { width: 1280, height: 860 },
      defaultTimeout: 8_000,
    });
    await ownerPage.goto("/?settings=team");
    const form = ownerPage.getByRole("region", { name: "Invite a team member" });
    await form.getByLabel("Email").fill(address);
    await form.getByLabel("Role").selectOption("member");
    await form.getByText("Member: only the clients assigned to them.").waitFor();
    await form.getByRole("button", { name: "Send invite" }).click();
    await expectToast(ownerPage, "Invite sent");
    const pending = ownerPage.getByRole("list", { name: "Pending invites" });
    await pending.getByText(address).waitFor();
    await form.getByRole("button", { name: "Copy link" }).waitFor();
    await keepScreenshot(ownerPage, "team-tab-invited");

    // The invitee opens the link from the email, on a phone, signed out.
    const mail = await server.smtp.waitFor(address, (m) => m.subject.includes("invited you"));
    expect(mail.subject).toBe("Olivia Owner invited you to Ortega Studio on ClientDesk");
    const link = new URL(/https?:\/\/\S+\/team\/invite\/[A-Za-z0-9_-]+/.exec(mail.text)![0]);
    const phone = await openPage(browser, server.url, undefined, {
      viewport: { width: 360, height: 740 },
      defaultTimeout: 8_000,
    });
    await phone.goto(link.pathname);
    await phone
      .getByText("Olivia Owner invited you to join Ortega Studio on ClientDesk as Member.")
      .waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
    await keepScreenshot(phone, "join-signed-out");
    await phone.getByRole("link", { name: "Create your account" }).click();
    await phone.getByRole("tab", { name: "Sign Up", selected: true }).waitFor();
    await phone.getByLabel("Full name").fill("Mia Member");
    expect(await phone.getByLabel("Email").inputValue()).toBe(address);
    await phone.getByLabel("Password", { exact: true }).fill("correct horse battery");
    await phone.getByLabel("Confirm password").fill("correct horse battery");
    await phone.getByRole("button", { name: "Create Account" }).click();
    await expectPath(phone, "/verify-email");
    const code = codeFrom(
      await server.smtp.waitFor(address, (m) => /verification/i.test(m.subject)),
    );
    await phone.getByLabel("Verification code").fill(code);
    await phone.getByRole("button", { name: "Verify Email" }).click();
    // Back on the invite's page, signed in: one button joins.
    await expectPath(phone, link.pathname);
    const join = phone.getByRole("button", { name: "Join Ortega Studio" });
    await join.waitFor();
    await keepScreenshot(phone, "join-signed-in");
    await join.click();
    await expectPath(phone, "/");
    await phone.getByRole("button", { name: "Account settings" }).waitFor();
    const memberRow = await server.db("users").where({ email: address }).first();
    expect(memberRow).toMatchObject({ workspaceId: owner.id, teamRole: "member" });

    // The owner sees them, makes them an admin, then removes them.
    await ownerPage.goto("/?settings=team");
    const members = ownerPage.getByRole("list", { name: "Team members" });
    await members.getByText("Mia Member").waitFor();
    expect(await ownerPage.getByRole("list", { name: "Pending invites" }).count()).toBe(0);
    await members.getByLabel("Role of Mia Member").selectOption("admin");
    await expectToast(ownerPage, "Mia Member is now an Admin.");
    expect((await server.db("users").where({ email: address }).first()).teamRole).toBe("admin");
    await keepScreenshot(ownerPage, "team-tab-member");
    const ownerPhone = await openPage(browser, server.url, owner.agent, {
      viewport: { width: 360, height: 740 },
      defaultTimeout: 8_000,
    });
    await ownerPhone.goto("/?settings=team");
    await ownerPhone.getByRole("list", { name: "Team members" }).getByText("Mia Member").waitFor();
    expect(await overflows(ownerPhone, "Team members")).toBe(false);
    await keepScreenshot(ownerPhone, "team-tab-member");
    await ownerPhone.close();

    await members.getByRole("button", { name: "Remove Mia Member" }).click();
    const confirm = ownerPage.getByRole("dialog", { name: "Remove Mia Member?" });
    await confirm.getByRole("button", { name: "Remove" }).click();
    await expectToast(ownerPage, "Mia Member was removed from the team");
    await members.getByText("Mia Member").waitFor({ state: "detached" });
    expect((await server.db("users").where({ email: address }).first()).workspaceId).toBe(
      memberRow.id,
    );
    // Signed out there at once.
    expect((await phone.request.get("/api/user")).status()).toBe(401);
    await ownerPage.close();
    await phone.close();
  });

  it("says so when an invite link is no longer valid", async () => {
    const page = await openPage(browser, server.url, undefined, {
      viewport: { width: 360, height: 740 },
      defaultTimeout: 8_000,
    });
    await page.goto(`/team/invite/${"x".repeat(43)}`);
    await page.getByRole("heading", { name: "This team invite is no longer valid" }).waitFor();
    await page.getByRole("link", { name: "Go to ClientDesk" }).waitFor();
    await keepScreenshot(page, "join-invalid");
    await page.close();
  });
});
