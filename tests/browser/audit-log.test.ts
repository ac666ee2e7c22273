import { readFile } from "node:fs/promises";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addClient, setTier } from "../support/conversations";
import { signUpOwner, uniqueEmail } from "../support/factories";
import { expectToast, keepScreenshot, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

// Issue 26, part 8: the workspace's owner and admins see its activity (the audit log) in the
// Team tab of Account Settings, and download it as CSV.
describe.skipIf(!browserAvailable)("the Activity section", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const viewport of [
    { width: 1280, height: 860 },
    { width: 360, height: 740 },
  ]) {
    it(`lists what the owner did as sentences and exports them (${viewport.width} px)`, async () => {
      const owner = await signUpOwner(server, "Olga Owner");
      await setTier(owner.id, "agency");
      const address = uniqueEmail("mia");
      const page = await openPage(browser, server.url, owner.agent, {
        viewport,
        defaultTimeout: 8_000,
      });
      await page.goto("/?settings=team");
      const panel = page
        .getByRole("dialog", { name: "Account Settings" })
        .getByRole("tabpanel", { name: "Team" });
      const activity = panel.getByRole("region", { name: "Activity" });
      await activity.getByText("Nothing yet: what your team does will show here.").waitFor();

      // The owner invites from the Team tab: the list learns of it at once.
      const form = panel.getByRole("region", { name: "Invite a team member" });
      await form.getByLabel("Email").fill(address);
      await form.getByLabel("Role").selectOption("member");
      await form.getByRole("button", { name: "Send invite" }).click();
      await expectToast(page, "Invite sent");
      const list = activity.getByRole("list", { name: "Activity" });
      await list.getByText(`Olga Owner invited ${address} as Member`).waitFor();

      // A client added and assigned (elsewhere in the app): there on the next opening.
      const client = await addClient(owner, { name: "Acme Corp" });
      const assigned = await owner.agent.put(`/api/clients/${client.id}/assignees`, {
        userIds: [owner.id],
      });
      expect(assigned.status).toBe(200);
      await page.goto("/?settings=team");
      await list.getByText("Olga Owner assigned Acme Corp to Olga Owner").waitFor();
      const items = list.getByRole("listitem");
      expect(await items.allTextContents()).toEqual([
        "Olga Owner assigned Acme Corp to Olga Owner·just now",
        "Olga Owner added the client Acme Corp·just now",
        `Olga Owner invited ${address} as Member·just now`,
      ]);
      // When, exactly, for those who hover or read the markup.
      expect(await items.first().locator("time").getAttribute("datetime")).toMatch(
        /^\d{4}-\d{2}-\d{2}T/,
      );
      expect(await activity.getByRole("button", { name: "Load more" }).count()).toBe(0);
      // Nothing spills sideways on a phone.
      expect(
        await activity.evaluate((section) => section.scrollWidth <= section.clientWidth + 1),
      ).toBe(true);
      await activity.scrollIntoViewIfNeeded();
      await keepScreenshot(page, "team-activity");

      // Export CSV downloads the same entries.
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        activity.getByRole("link", { name: "Export the activity log as CSV" }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = await readFile((await download.path())!, "utf8");
      const lines = csv
        .replace(/^\uFEFF/, "")
        .trimEnd()
        .split("\r\n");
      expect(lines[0]).toBe("Time (UTC),Who,What,Action,Subject,Details");
      expect(lines.slice(1).map((line) => line.split(",").slice(1, 4).join(","))).toEqual([
        "Olga Owner,Olga Owner assigned Acme Corp to Olga Owner,client.assigned",
        "Olga Owner,Olga Owner added the client Acme Corp,client.added",
        `Olga Owner,Olga Owner invited ${address} as Member,member.invited`,
      ]);
      await page.context().close();
    });
  }

  it("pages with Load more", async () => {
    const owner = await signUpOwner(server, "Olga Owner");
    await setTier(owner.id, "agency");
    for (let i = 1; i <= 27; i += 1) await addClient(owner, { name: `Client ${i}` });
    const page = await openPage(browser, server.url, owner.agent, { defaultTimeout: 8_000 });
    await page.goto("/?settings=team");
    const activity = page.getByRole("region", { name: "Activity" });
    const items = activity.getByRole("list", { name: "Activity" }).getByRole("listitem");
    await items.first().waitFor();
    expect(await items.count()).toBe(25);
    await activity.getByRole("button", { name: "Load more" }).click();
    await activity.getByText(/added the client Client 1$/).waitFor();
    expect(await items.count()).toBe(27);
    expect(await activity.getByRole("button", { name: "Load more" }).count()).toBe(0);
    await page.context().close();
  });
});
