import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import type { TestClock } from "../support/clock";
import { addClient } from "../support/conversations";
import { testDatabase } from "../support/database";
import { signUpOwner } from "../support/factories";
import { expectPath, keepScreenshot } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";
import { linkIn } from "../support/smtp";

const PHONE = { width: 375, height: 740 };

// Issue 29, "Done when": a client invited in German joins from the invite link in a browser that
// speaks English, reads the portal in German, and gets the unanswered-message email in German.
// The texts are the German catalogs' (shared/locales/de/portal.json, conversation.json,
// emails.json).
describe.skipIf(!browserAvailable)("a client in German, from the invite to the email", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    // The sweep takes every due row of its database: a database of its own.
    [server, browser] = await Promise.all([
      testDatabase({ isolated: true }).then((db) => startTestServer({ db })),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await server?.db.destroy();
  });

  const documentLanguage = (page: Page) => page.evaluate(() => document.documentElement.lang);

  /** The German portal as a client sees it: its header, tabs, composer and footer. */
  async function expectGermanPortal(page: Page) {
    await page.getByRole("tab", { name: "Unterhaltung" }).waitFor();
    await page.getByRole("tab", { name: "Anhänge" }).waitFor();
    await page.getByRole("tab", { name: "Einstellungen" }).waitFor();
    await page.getByText("Ihre Kontaktperson").waitFor();
    await page.getByText("Willkommen, Carla Client").waitFor();
    await page.getByRole("button", { name: "Nachrichten durchsuchen" }).waitFor();
    await page.getByPlaceholder("Nachricht an Olivia Owner").waitFor();
    expect(await page.locator(".portal__footer").first().textContent()).toBe(
      "Bereitgestellt von ClientDesk",
    );
    expect(await documentLanguage(page)).toBe("de");
    // Nothing of the same places in English.
    const text = await page.locator("body").textContent();
    for (const english of ["Your contact", "Welcome,", "Powered by", "Attachments", "Log out"]) {
      expect(text).not.toContain(english);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
  }

  it("joins from a German invite in an English browser and reads a German unanswered-message email", async () => {
    // 1. An English-speaking owner adds a client whose invite language is German.
    const owner = await signUpOwner(server, "Olivia Owner");
    const added = await addClient(owner, { name: "Carla Client", language: "de" });

    // 2. The client opens the invite in a browser that speaks English, on a phone.
    const context: BrowserContext = await browser.newContext({
      baseURL: server.url,
      locale: "en-US",
      viewport: PHONE,
    });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(`/invite/${added.inviteToken}`);
    await expectPath(page, `/client/${added.id}`);
    // English browser, so the German comes from the invite alone.
    expect(await page.evaluate(() => navigator.language)).toBe("en-US");
    await expectGermanPortal(page);
    await keepScreenshot(page, "german-client-joined");
    // Away from the conversation: what the owner sends next waits unread.
    await page.close();

    // 3. The owner writes; the client's delay (5 minutes by default) passes; the sweep mails.
    const sent = await owner.agent.post(`/api/clients/${added.id}/messages`, {
      content: "Hier ist der erste Entwurf.",
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    (server.clock as TestClock).advanceMinutes(5);
    await server.jobs.runOnce("unanswered-messages");
    const mail = await server.smtp.waitFor(added.email, (received) =>
      received.subject.startsWith("Neue Nachricht"),
    );
    expect(mail.subject).toBe("Neue Nachricht von Olivia Owner");
    expect(mail.html).toContain("Olivia Owner hat Ihnen eine Nachricht gesendet");
    for (const german of [
      "Guten Tag Carla Client, Olivia Owner wartet auf ClientDesk auf Ihre Antwort.",
      "Hier ist der erste Entwurf.",
      "Sie erhalten diese E-Mail, weil diese Nachricht 5 Minuten lang weder gelesen noch beantwortet wurde.",
      "Wir senden nur diese eine E-Mail, bis Sie die Unterhaltung wieder öffnen.",
      "Um festzulegen, wie lange wir warten, bevor wir Ihnen eine E-Mail senden (1 bis 60 Minuten), öffnen Sie die Registerkarte „Einstellungen“ Ihrer Unterhaltung.",
    ]) {
      expect(mail.text).toContain(german);
    }
    for (const english of [
      "is waiting for your answer",
      "sent you",
      "You received this",
      "Open the conversation",
      "Change the email delay",
      "minutes",
    ]) {
      expect(mail.text).not.toContain(english);
      expect(mail.html).not.toContain(english);
    }
    expect(linkIn(mail, "Wartezeit für E-Mails ändern")).toBe(
      `${server.url}/client/${added.id}?tab=settings`,
    );

    // The email's "Unterhaltung öffnen" opens the German portal, with the message.
    const fromMail = await context.newPage();
    await fromMail.goto(linkIn(mail, "Unterhaltung öffnen"));
    await fromMail.getByRole("log").getByText("Hier ist der erste Entwurf.").waitFor();
    await expectGermanPortal(fromMail);
    await keepScreenshot(fromMail, "german-client-from-email");
    await context.close();
  });
});
