import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { type TestServer, startTestServer } from "../support/server";

/**
 * The client portal in the reader's language (issue 29): before the server knows the client,
 * the browser's language decides, and a language the product lacks falls back to English.
 */
describe.skipIf(!browserAvailable)("the client portal's language", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function portalIn(locale: string): Promise<{ page: Page }> {
    const context = await browser.newContext({ baseURL: server.url, locale });
    const page = await context.newPage();
    await page.goto("/client");
    return { page };
  }

  it("greets a German browser in German, formally, with the footer's brand in bold", async () => {
    const { page } = await portalIn("de-DE");
    await page.getByRole("heading", { name: "Bei Ihrer Unterhaltung anmelden" }).waitFor();
    await page.getByLabel("Ihre E-Mail-Adresse").waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("de");
    const footer = page.locator(".portal__footer");
    expect(await footer.textContent()).toBe("Bereitgestellt von ClientDesk");
    expect(await footer.locator("strong").textContent()).toBe("ClientDesk");
    await page.context().close();
  });

  it("greets a French browser in French and an unknown language in English", async () => {
    const french = await portalIn("fr-FR");
    await french.page
      .getByRole("heading", { name: "Connectez-vous à votre conversation" })
      .waitFor();
    await french.page.context().close();

    const other = await portalIn("ja-JP");
    await other.page.getByRole("heading", { name: "Sign in to your conversation" }).waitFor();
    expect(await other.page.locator(".portal__footer").textContent()).toBe("Powered by ClientDesk");
    await other.page.context().close();
  });
});
