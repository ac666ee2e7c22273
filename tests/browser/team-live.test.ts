import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { setTier } from "../support/conversations";
import { type SignedInOwner, signUpOwner, uniqueEmail } from "../support/factories";
import { keepScreenshot, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";
import { addStaff } from "../support/team";

// Issue 26: what the team's owner or admins change reaches the others' open Team tabs without
// a reload (team_changed over the websocket), the changed person's own page included.
describe.skipIf(!browserAvailable)("the Team tab stays live", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** `person`'s Team tab, open, once their page's socket is registered on the server. */
  async function openTeamTab(person: SignedInOwner, viewport = { width: 1280, height: 860 }) {
    const page = await openPage(browser, server.url, person.agent, {
      viewport,
      defaultTimeout: 8_000,
    });
    await page.goto("/?settings=team");
    const panel = page
      .getByRole("dialog", { name: "Account Settings" })
      .getByRole("tabpanel", { name: "Team" });
    await panel.getByRole("list", { name: "Team members" }).waitFor();
    // The server notes a user's first open socket: from then on, what changes reaches the page.
    await expect
      .poll(async () => (await server.db("socketPresence").where({ userId: person.id })).length)
      .toBe(1);
    return { page, panel };
  }

  it("shows an admin the invite the owner just sent", async () => {
    const owner = await signUpOwner(server, "Olga Owner");
    await setTier(owner.id, "agency");
    const admin = await addStaff(server, owner, "admin", "Adam Admin");
    const { page, panel } = await openTeamTab(admin);
    const invites = panel.getByRole("list", { name: "Pending invites" });
    await panel.getByRole("region", { name: "Invite a team member" }).waitFor();

    const address = uniqueEmail("nia");
    const invited = await owner.agent.post("/api/team/members", { email: address, role: "member" });
    expect(invited.status).toBe(201);

    // No reload: the list, the seat count and the activity follow.
    await invites.getByText(address).waitFor();
    await panel
      .getByRole("region", { name: "Activity" })
      .getByText(`Olga Owner invited ${address} as Member`)
      .waitFor();
    await keepScreenshot(page, "team-live-admin");
    await page.close();
  });

  for (const [label, viewport] of [
    ["desktop", { width: 1280, height: 860 }],
    ["phone", { width: 360, height: 740 }],
  ] as const) {
    it(`gives a member made admin the admin's Team tab at once (${label})`, async () => {
      const owner = await signUpOwner(server, "Olga Owner");
      await setTier(owner.id, "agency");
      const member = await addStaff(server, owner, "member", "Mia Member");
      const { page, panel } = await openTeamTab(member, viewport);
      const form = panel.getByRole("region", { name: "Invite a team member" });
      expect(await form.count()).toBe(0);
      const myRow = panel
        .getByRole("list", { name: "Team members" })
        .getByRole("listitem")
        .filter({ hasText: "Mia Member (you)" });
      await myRow.getByText("Member", { exact: true }).waitFor();

      const promoted = await owner.agent.patch(`/api/team/members/${member.id}`, {
        role: "admin",
      });
      expect(promoted.status).toBe(200);

      // No reload: their own row says so, and what an admin may do appears.
      await myRow.getByText("Admin", { exact: true }).waitFor();
      await form.getByLabel("Email").waitFor();
      await panel.getByRole("region", { name: "Activity" }).waitFor();
      expect(await panel.evaluate((tab) => tab.scrollWidth <= tab.clientWidth + 1)).toBe(true);
      await keepScreenshot(page, `team-live-promoted-${label}`);
      await page.close();
    });
  }
});
