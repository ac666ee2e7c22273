import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { signUpOwner } from "../support/factories";
import { openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

/** Set SCREENSHOT_DIR to keep a screenshot of the tab at each width. */
const screenshotDir = process.env.SCREENSHOT_DIR;

// Issue 26, first step: the owner's workspace and its members, in Account Settings.
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
      // Nothing spills out of its row at either width.
      const overflowing = await members.evaluate((list) =>
        [...list.querySelectorAll("li *")].some(
          (el) =>
            el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).textOverflow !== "ellipsis",
        ),
      );
      expect(overflowing).toBe(false);
      if (screenshotDir) await page.screenshot({ path: `${screenshotDir}/team-${label}.png` });
      await page.close();
    });
  }
});
