import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { signUpOwner, uniqueEmail } from "../support/factories";
import { expectToast, keepScreenshot, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";
import { addTeamMember } from "../support/team";
import { subscribeInTestMode } from "../support/test-mode-checkout";

// Issue 26, seats: an Agency owner whose 3 seats are taken is asked to buy one in the Team
// tab, buys it (test mode), and the invite goes through; an admin is told to ask the owner.
describe.skipIf(!browserAvailable)("buying a seat from the Team tab", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** An Agency workspace in test mode: the owner, an admin and one pending invite. */
  async function fullWorkspace() {
    const owner = await signUpOwner(server, "Olivia Owner");
    await subscribeInTestMode(server, owner, "agency");
    const admin = await addTeamMember(server, owner, { teamRole: "admin", fullName: "Ada Admin" });
    const invited = await owner.agent.post("/api/team/members", {
      email: uniqueEmail("pending"),
      role: "member",
    });
    expect(invited.status).toBe(201);
    return { owner, admin };
  }

  for (const [label, viewport] of [
    ["desktop", { width: 1280, height: 860 }],
    ["phone", { width: 360, height: 740 }],
  ] as const) {
    it(`asks the owner to add a seat, adds it, then sends the invite (${label})`, async () => {
      const { owner } = await fullWorkspace();
      const page = await openPage(browser, server.url, owner.agent, {
        viewport,
        defaultTimeout: 8_000,
      });
      await page.goto("/?settings=team");
      const panel = page
        .getByRole("dialog", { name: "Account Settings" })
        .getByRole("tabpanel", { name: "Team" });
      await panel.getByText("3 of 3 seats used", { exact: true }).waitFor();
      const meter = panel.getByRole("progressbar", { name: "Seats used" });
      expect(await meter.getAttribute("aria-valuenow")).toBe("3");

      const form = page.getByRole("region", { name: "Invite a team member" });
      const address = uniqueEmail("fourth");
      await form.getByLabel("Email").fill(address);
      const prompt = form.getByRole("status", { name: "All 3 seats are taken" });
      await prompt.waitFor();
      expect(await form.getByRole("button", { name: "Send invite" }).count()).toBe(0);
      const buy = prompt.getByRole("button", { name: "Add a seat for $8/month" });
      await buy.scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await keepScreenshot(page, `seats-prompt-${label}`);
      await expectNoSeriousAxeViolations(page, `seat prompt (${label})`);

      await buy.click();
      await expectToast(page, "Seat added");
      await panel.getByText("3 of 4 seats used", { exact: true }).waitFor();
      // The Send button is back, focused, and what was typed is kept.
      const send = form.getByRole("button", { name: "Send invite" });
      await expect.poll(() => send.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await form.getByLabel("Email").inputValue()).toBe(address);
      await page.keyboard.press("Enter");
      await expectToast(page, "Invite sent");
      await page.getByRole("list", { name: "Pending invites" }).getByText(address).waitFor();
      // That took the last seat: the prompt takes the place, and the focus, of Send.
      const again = form.getByRole("status", { name: "All 4 seats are taken" });
      await expect.poll(() => again.evaluate((el) => el === document.activeElement)).toBe(true);
      await panel.getByText("4 of 4 seats used", { exact: true }).waitFor();
      await panel
        .getByText("3 included with your plan · 1 extra seat at $8/month each · 2 invites pending")
        .waitFor();
      await keepScreenshot(page, `seats-bought-${label}`);

      // The sidebar's plan box counts them too (on a desktop; a phone keeps it in the menu).
      await page
        .getByRole("dialog", { name: "Account Settings" })
        .getByRole("button", { name: "Close" })
        .click();
      if (label === "desktop")
        await page
          .getByRole("region", { name: "Your plan" })
          .getByText("4 of 4 seats used")
          .waitFor();
      await page.close();
    });
  }

  it("tells an admin to ask the owner, and shows seats on the pricing page", async () => {
    const { admin } = await fullWorkspace();
    const page = await openPage(browser, server.url, admin.agent, {
      viewport: { width: 1280, height: 860 },
      defaultTimeout: 8_000,
    });
    await page.goto("/?settings=team");
    const form = page.getByRole("region", { name: "Invite a team member" });
    const prompt = form.getByRole("status", { name: "All 3 seats are taken" });
    await prompt
      .getByText("Ask the workspace's owner to add a seat, or withdraw a pending invite.")
      .waitFor();
    expect(await prompt.getByRole("button").count()).toBe(0);
    await keepScreenshot(page, "seats-admin");
    await page.close();

    const pricing = await openPage(browser, server.url, undefined, {
      viewport: { width: 360, height: 740 },
      defaultTimeout: 8_000,
    });
    await pricing.goto("/pricing");
    await pricing
      .getByRole("region", { name: "Agency" })
      .getByText("3 team seats included, $8 per extra seat a month")
      .waitFor();
    await pricing.close();
  });
});
