import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { expectToast, expectValue, keepScreenshot, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 375, height: 667 };

// Issue 29, point 3: each person reads ClientDesk in their own language, picked in settings.
// Only the languages namespace's own texts are asserted: other areas are translated apart.
describe.skipIf(!browserAvailable)("each person's language", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const documentLanguage = (page: Page) => page.evaluate(() => document.documentElement.lang);
  const fitsWidth = async (page: Page, width: number) =>
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );

  it("staff switch to Deutsch in their settings, by keyboard: at once, and after a reload", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const page = await openPage(browser, server.url, owner.agent, {
      viewport: DESKTOP,
      defaultTimeout: 10_000,
    });
    await page.goto("/?settings=profile");
    const select = page.getByLabel("Display language");
    await expectValue(select, "en");
    expect(await documentLanguage(page)).toBe("en");
    // Each language is named in itself.
    expect(await select.locator("option").allTextContents()).toEqual([
      "English",
      "Deutsch",
      "Français",
      "Español",
      "Português (Brasil)",
    ]);
    await expectNoSeriousAxeViolations(page, "Profile settings, language");

    // Type-ahead on the focused select picks Deutsch, which is saved and shown at once.
    await select.focus();
    await page.keyboard.press("d");
    const german = page.getByLabel("Anzeigesprache");
    await expectValue(german, "de");
    await page.getByRole("heading", { name: "Sprache", exact: true }).waitFor();
    await expectToast(page, "Sprache gespeichert");
    expect(await documentLanguage(page)).toBe("de");
    // Focus stays on the select: a keyboard user goes on from where they were.
    expect(await german.evaluate((element) => element === document.activeElement)).toBe(true);
    await keepScreenshot(page, "language-staff-de");

    // A reload (the settings link again: opening it took ?settings off the address).
    await page.goto("/?settings=profile");
    await expectValue(page.getByLabel("Anzeigesprache"), "de");
    expect(await documentLanguage(page)).toBe("de");
    await page.close();

    // On a phone too: the pick belongs to the person, not to the device.
    const phone = await openPage(browser, server.url, owner.agent, {
      viewport: PHONE,
      defaultTimeout: 10_000,
    });
    await phone.goto("/?settings=profile");
    await expectValue(phone.getByLabel("Anzeigesprache"), "de");
    expect(await documentLanguage(phone)).toBe("de");
    await fitsWidth(phone, PHONE.width);
    await expectNoSeriousAxeViolations(phone, "Profile settings in German, phone");
    await keepScreenshot(phone, "language-staff-de");
  });

  it("a client contact picks Français in the portal's settings and stays French", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await openPage(browser, server.url, client.agent, {
        viewport,
        defaultTimeout: 10_000,
      });
      await page.goto(`/client/${client.id}?tab=settings`);
      if (viewport === PHONE) {
        const select = page.getByLabel("Display language");
        await expectValue(select, "en");
        await expectNoSeriousAxeViolations(page, "Portal settings, language");
        await select.focus();
        await page.keyboard.press("f");
        await expectToast(page, "Langue enregistrée");
      }
      const french = page.getByLabel("Langue d'affichage");
      await expectValue(french, "fr");
      await page.getByRole("heading", { name: "Langue", exact: true }).waitFor();
      expect(await documentLanguage(page)).toBe("fr");
      await fitsWidth(page, viewport.width);
      await keepScreenshot(page, "language-portal-fr");

      await page.reload();
      await expectValue(page.getByLabel("Langue d'affichage"), "fr");
      expect(await documentLanguage(page)).toBe("fr");
      await expectNoSeriousAxeViolations(page, "Portal settings in French");
      await page.close();
    }
  });
});
