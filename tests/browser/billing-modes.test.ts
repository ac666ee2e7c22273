import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { signUpOwner } from "../support/factories";
import { expectPath, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

const TEST_BAR = "TEST MODE: no real payment is taken. Stripe is not configured on this server.";

/** What BILLING_MODE shows in the web app: the TEST MODE bar, or no plans at all. */
describe.skipIf(!browserAvailable)("billing modes in the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  const pageAs = (server: TestServer, agent?: { cookieHeader: string }): Promise<Page> =>
    openPage(browser, server.url, agent, {
      viewport: { width: 1280, height: 860 },
      defaultTimeout: 10_000,
    });

  describe("test mode named in production", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ env: { NODE_ENV: "production", BILLING_MODE: "test" } });
    });
    afterAll(() => server?.close());

    it("shows the TEST MODE bar on the dashboard and on /pricing, signed in or not", async () => {
      const owner = await signUpOwner(server);
      const page = await pageAs(server, owner.agent);
      await page.goto("/");
      await page.getByRole("region", { name: "Your plan" }).waitFor();
      await page.getByRole("note").filter({ hasText: TEST_BAR }).waitFor();
      await page.goto("/pricing");
      await page.getByRole("heading", { name: "Choose your plan" }).waitFor();
      await page.getByRole("note").filter({ hasText: TEST_BAR }).waitFor();

      const visitor = await pageAs(server);
      await visitor.goto("/pricing");
      await visitor.getByRole("note").filter({ hasText: TEST_BAR }).waitFor();
    });
  });

  describe("billing off", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ env: { BILLING_MODE: "off" } });
    });
    afterAll(() => server?.close());

    it("has no plans, no upgrade and no pricing page, and no TEST MODE bar", async () => {
      const owner = await signUpOwner(server);
      const page = await pageAs(server, owner.agent);
      await page.goto("/pricing");
      await expectPath(page, "/");
      await page.getByRole("button", { name: "Add Client" }).waitFor();
      // Two clients where the free tier stops at one: the button never says the limit is reached.
      for (const name of ["First", "Second"]) {
        const added = await owner.agent.post("/api/clients", {
          name,
          email: `${name.toLowerCase()}-${owner.id}@example.test`,
        });
        expect(added.status).toBe(201);
      }
      await page.reload();
      await page.getByRole("button", { name: "Add Client" }).waitFor();
      expect(await page.getByRole("button", { name: "Add Client (Limit reached)" }).count()).toBe(
        0,
      );
      expect(await page.getByRole("region", { name: "Your plan" }).count()).toBe(0);
      // Only the storage used, against the top tier's room.
      await expect
        .poll(() => page.getByRole("region", { name: "Storage" }).textContent())
        .toMatch(/of 200 GB used/);
      expect(await page.getByRole("link", { name: "Upgrade" }).count()).toBe(0);
      expect(await page.getByText(TEST_BAR).count()).toBe(0);

      await page.getByRole("button", { name: "Account settings" }).click();
      const dialog = page.getByRole("dialog", { name: "Account Settings" });
      await dialog.getByRole("tab", { name: "Account" }).click();
      // Every feature: the agency sections are there, with nothing to buy.
      await dialog.getByRole("heading", { name: "Company Logo" }).waitFor();
      await dialog.getByRole("heading", { name: "Color Scheme" }).waitFor();
      expect(await dialog.getByRole("link", { name: /Upgrade|View plans/ }).count()).toBe(0);
    });
  });
});
