import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { setTier } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { expectToast, keepScreenshot, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";
import { addStaff } from "../support/team";

// Issue 26, part 1: the owner makes an admin the owner from the Team tab, with her password;
// the admin's open Team tab shows him as the owner at once, and she stays as an admin.
describe.skipIf(!browserAvailable)("handing the workspace over", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("makes an admin the owner, confirmed with the password", async () => {
    const olga = await signUpOwner(server, "Olga Owner");
    await setTier(olga.id, "agency");
    const alex = await addStaff(server, olga, "admin", "Alex Admin");

    const alexPage = await openPage(browser, server.url, alex.agent, {
      viewport: { width: 360, height: 740 },
      defaultTimeout: 10_000,
    });
    await alexPage.goto("/?settings=team");
    const alexList = alexPage.getByRole("list", { name: "Team members" });
    await alexList.getByText("Olga Owner").waitFor();

    const page = await openPage(browser, server.url, olga.agent, {
      viewport: { width: 1280, height: 800 },
      defaultTimeout: 10_000,
    });
    await page.goto("/?settings=team");
    const members = page.getByRole("list", { name: "Team members" });
    await members.getByRole("button", { name: "Make Alex Admin the owner" }).click();
    const dialog = page.getByRole("dialog", { name: "Make Alex Admin the owner?" });
    await dialog.getByText("You stay in the team as an admin.", { exact: false }).waitFor();
    await keepScreenshot(page, "make-owner-dialog");
    const violations = await axeViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);
    await dialog.getByLabel("Your password").fill("not it");
    await dialog.getByRole("button", { name: "Make owner" }).click();
    await expectToast(page, "Password is incorrect");
    await dialog.getByLabel("Your password").fill(olga.password);
    await dialog.getByRole("button", { name: "Make owner" }).click();
    await expectToast(page, "Alex Admin is now the workspace's owner");

    // Olga is an admin now: no more handing over, and Alex's row says Owner.
    const alexRow = members.getByRole("listitem").filter({ hasText: "Alex Admin" });
    await alexRow.getByText("Owner", { exact: true }).waitFor();
    expect(await members.getByRole("button", { name: /the owner$/ }).count()).toBe(0);
    // Alex's open page follows (team_changed): he may hand it over himself now.
    await alexList.getByRole("button", { name: "Make Olga Owner the owner" }).waitFor();
    expect(await alexPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
    await keepScreenshot(alexPage, "make-owner-after");
    await page.close();
    await alexPage.close();
  });
});
