import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, setTier } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { expectToast, keepScreenshot, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 375, height: 667 };

// Issue 28, point 5: a client deleted by mistake is restored from Settings → Deleted clients.
describe.skipIf(!browserAvailable)("deleted clients", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function keepFor(owner: SignedInOwner, days: number) {
    const saved = await owner.agent.request("PATCH", "/api/workspace/retention", {
      json: { days },
    });
    expect(saved.status).toBe(200);
  }

  const fitsWidth = async (page: Page, width: number) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );

  it("a deleted client is listed under Deleted clients and comes back with its messages, by keyboard", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "pro");
    await keepFor(owner, 30);
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    await client.agent.post(`/api/clients/${client.id}/messages`, { content: "Logo draft please" });
    const page = await openPage(browser, server.url, owner.agent, {
      viewport: DESKTOP,
      defaultTimeout: 10_000,
    });
    await page.goto(`/?client=${client.id}`);
    const log = page.getByRole("log");
    await log.getByText("Logo draft please").waitFor();

    // Delete, by keyboard: the confirmation says for how long it can be restored.
    await page.getByRole("button", { name: "Delete Carla Client" }).focus();
    await page.keyboard.press("Enter");
    const confirm = page.getByRole("dialog", { name: "Delete Carla Client?" });
    await confirm
      .getByText("You can restore it from Settings → Deleted clients for 30 days.")
      .waitFor();
    expect(await confirm.getByText("This cannot be undone.").count()).toBe(0);
    await keepScreenshot(page, "delete-client-restorable");
    await confirm.getByRole("button", { name: "Delete client" }).focus();
    await page.keyboard.press("Enter");
    await expectToast(page, "Client deleted successfully");
    await expect.poll(() => page.getByRole("link", { name: /Carla Client/ }).count()).toBe(0);

    // Settings → Deleted clients lists it, with who deleted it.
    await page.getByRole("button", { name: "Account settings" }).click();
    const settings = page.getByRole("dialog", { name: "Account Settings" });
    await settings.getByRole("tab", { name: "Deleted clients" }).click();
    const panel = settings.getByRole("tabpanel", { name: "Deleted clients" });
    const list = panel.getByRole("list", { name: "Deleted clients" });
    const row = list.getByRole("listitem").filter({ hasText: "Carla Client" });
    await row.getByText(/Deleted .* by Olivia Owner · removed for good on/).waitFor();
    expect(await panel.getByLabel("Keep deleted clients for").inputValue()).toBe("30");
    await expectNoSeriousAxeViolations(page, "Deleted clients, one client");
    await keepScreenshot(page, "deleted-clients-list");

    // Restore, by keyboard; focus stays in the section and the empty state shows.
    await row.getByRole("button", { name: "Restore Carla Client" }).focus();
    await page.keyboard.press("Enter");
    await expectToast(page, "Client restored");
    await panel.getByText("No deleted clients to restore.", { exact: false }).waitFor();
    expect(
      await page.evaluate(() => document.activeElement?.id ?? document.activeElement?.tagName),
    ).toBe("deleted-clients-title");
    await expectNoSeriousAxeViolations(page, "Deleted clients, empty");
    await keepScreenshot(page, "deleted-clients-empty");

    // Back in the list with its conversation.
    await page.keyboard.press("Escape");
    await settings.waitFor({ state: "hidden" });
    await page.getByRole("link", { name: /Carla Client/ }).click();
    await log.getByText("Logo draft please").waitFor();
    expect(new URL(page.url()).searchParams.get("client")).toBe(client.id);
    await page.close();
  }, 90_000);

  it("on a phone: the setting is chosen and saved, and a deletion elsewhere shows live", async () => {
    const owner = await signUpOwner(server, "Paula Phone");
    await setTier(owner.id, "pro");
    const client = await addJoinedClient(server, owner, { name: "Dana Doe" });
    const page = await openPage(browser, server.url, owner.agent, {
      viewport: PHONE,
      defaultTimeout: 10_000,
    });
    await page.goto("/?settings=deleted-clients");
    const panel = page
      .getByRole("dialog", { name: "Account Settings" })
      .getByRole("tabpanel", { name: "Deleted clients" });
    const select = panel.getByLabel("Keep deleted clients for");
    await panel.getByText("Deleted clients are removed at once and cannot be restored.").waitFor();
    await panel.getByText("No deleted clients to restore.", { exact: false }).waitFor();
    await select.focus();
    await select.selectOption("14");
    await panel.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Settings updated");
    expect((await owner.agent.get("/api/workspace/retention")).body).toEqual({ days: 14 });

    // Deleted from another browser: this page's list shows it without a reload.
    expect((await owner.agent.delete(`/api/clients/${client.id}`)).status).toBe(200);
    const row = panel.getByRole("listitem").filter({ hasText: "Dana Doe" });
    await row.getByRole("button", { name: "Restore Dana Doe" }).waitFor();
    await fitsWidth(page, PHONE.width);
    await expectNoSeriousAxeViolations(page, "Deleted clients on a phone");
    await keepScreenshot(page, "deleted-clients-phone");
    await row.getByRole("button", { name: "Restore Dana Doe" }).click();
    await expectToast(page, "Client restored");
    expect((await owner.agent.get("/api/clients")).body.map((c: { id: string }) => c.id)).toEqual([
      client.id,
    ]);
    await page.close();
  }, 90_000);
});
