import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pseudoText } from "../../shared/i18n/pseudo";
import type { PseudoLocale } from "../../shared/i18n/pseudo-locales";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, type JoinedClient, setTier } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { minimalPdf } from "../support/pdf";
import { sessionOf } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";
import { findTextOverflow, findUntranslatedTexts } from "../support/text-overflow";

/**
 * Issue 29, "Layouts that survive": every screen in the pseudo-locales, on a phone and a
 * desktop. pseudo=long (every translated text accented and 40% longer) must fit everywhere and
 * leave no plain English behind (a text that skipped t()); pseudo=rtl must not break when
 * mirrored. Each screen is its own test, so a failure names the screen and its area.
 * Screenshots: test-results/pseudo-locales/<locale>-<screen>-<width>x<height>.png.
 */

const PHONE = { width: 375, height: 667 };
const DESKTOP = { width: 1280, height: 800 };
const SHOTS = path.resolve("test-results/pseudo-locales");

const OWNER_NAME = "Olivia Owner";
const CLIENT_NAME = "Carla Client";
const LONG_CLIENT_NAME = "Maximiliana Wolkenstein-Oberhausen Creative Studio International";
const OTHER_CLIENT_NAME = "Bob Baker";
const FILE_NAME = "Spring campaign brochure final version.pdf";
const MESSAGES = [
  "Could you send the brochure for the spring campaign?",
  "Here it is, please take a look when you have a moment.",
  "The link: https://example.test/campaigns/spring-2027/brochure-final-version-approved-by-everyone",
];
const NOTE = "Carla prefers the blue version; check with Sam first.";

/**
 * The accessible name of a control whose English text is `english`, before and after its area
 * goes through t(): the plain text, or its pseudo-locale form.
 */
function named(locale: PseudoLocale, english: string): RegExp {
  const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^(${escapeRegExp(english)}|${escapeRegExp(pseudoText(locale, english))})$`);
}

describe.skipIf(!browserAvailable)("layouts in the pseudo-locales", () => {
  let server: TestServer;
  let browser: Browser;
  let owner: SignedInOwner;
  let client: JoinedClient;
  /** What the test wrote: shown as written in any language. */
  let userTexts: string[];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    mkdirSync(SHOTS, { recursive: true });
    owner = await signUpOwner(server, OWNER_NAME);
    await setTier(owner.id, "agency");
    client = await addJoinedClient(server, owner, { name: CLIENT_NAME });
    const long = await addJoinedClient(server, owner, { name: LONG_CLIENT_NAME });
    const other = await addJoinedClient(server, owner, { name: OTHER_CLIENT_NAME });
    const messages = `/api/clients/${client.id}/messages`;
    expect((await client.agent.post(messages, { content: MESSAGES[0] })).status).toBe(201);
    expect((await owner.agent.post(messages, { content: MESSAGES[1] })).status).toBe(201);
    const body = new FormData();
    body.append("requiresFeedback", "true");
    body.append(
      "file",
      new Blob([new Uint8Array(minimalPdf())], { type: "application/pdf" }),
      FILE_NAME,
    );
    const upload = await owner.agent.request("POST", `/api/clients/${client.id}/upload`, { body });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    expect((await owner.agent.post(messages, { content: MESSAGES[2] })).status).toBe(201);
    const note = await owner.agent.post(messages, { content: NOTE, visibility: "internal" });
    expect(note.status).toBe(201);
    // Unread messages on the other clients' rows.
    await long.agent.post(`/api/clients/${long.id}/messages`, { content: "Hello from Max" });
    await other.agent.post(`/api/clients/${other.id}/messages`, { content: "Hello from Bob" });
    userTexts = [
      OWNER_NAME,
      CLIENT_NAME,
      LONG_CLIENT_NAME,
      OTHER_CLIENT_NAME,
      FILE_NAME,
      ...MESSAGES,
      NOTE,
      "Hello from Max",
      "Hello from Bob",
      owner.email,
      client.email,
      long.email,
      other.email,
      // The product's and its plans' names, the same in every language (docs/decisions.md).
      "ClientDesk",
      "Free",
      "Pro",
      "Agency",
    ];
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const locale of ["long", "rtl"] as const)
    for (const viewport of [PHONE, DESKTOP])
      describe(`pseudo=${locale} at ${viewport.width}x${viewport.height}`, () => {
        const phone = viewport.width < 768;
        const contexts: BrowserContext[] = [];
        afterAll(async () => {
          await Promise.all(contexts.map((context) => context.close()));
        });

        /** A tab in the pseudo-locale, signed in as `agent` when given. */
        async function pageAs(agent?: { cookieHeader: string }): Promise<Page> {
          const context = await browser.newContext({
            baseURL: server.url,
            viewport,
            ...(phone && { isMobile: true, hasTouch: true }),
          });
          context.setDefaultTimeout(15_000);
          contexts.push(context);
          if (agent)
            await context.addCookies([{ name: "sid", value: sessionOf(agent), url: server.url }]);
          return context.newPage();
        }

        /** `pathname` with ?pseudo=<locale> (the tab keeps it for its later pages). */
        const url = (pathname: string) =>
          `${pathname}${pathname.includes("?") ? "&" : "?"}pseudo=${locale}`;

        /**
         * The screen's checks, each reported on its own: texts that overflow (any locale) and
         * texts that skipped t() (pseudo=long). `area` names the code behind the screen.
         */
        async function checkScreen(page: Page, screen: string, area: string) {
          const name = `${locale}-${screen}-${viewport.width}x${viewport.height}`;
          await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
          await expect
            .poll(() => page.evaluate(() => document.documentElement.lang))
            .toBe(locale === "long" ? "en-XA" : "ar-XB");
          if (locale === "rtl") {
            // Nothing turns a part of the page back to left to right (Radix did, by default).
            const forcedLtr = await page
              .locator("[dir=ltr]")
              .evaluateAll((elements) => elements.map((element) => element.className));
            expect.soft(forcedLtr, `${name}: parts written left to right`).toEqual([]);
          }
          const overflow = await findTextOverflow(page, { userTexts, area });
          expect.soft(overflow.join("\n"), `${name} (${area}): texts that overflow`).toBe("");
          if (locale === "long") {
            const untranslated = await findUntranslatedTexts(page, { userTexts, area });
            expect.soft(untranslated.join("\n"), `${name}: not translated`).toBe("");
          }
        }

        it("the sign-in and sign-up page", async () => {
          const page = await pageAs();
          await page.goto(url("/auth"));
          await page.locator("form input[type=email]").first().waitFor();
          await checkScreen(page, "sign-in", "web/src/auth");
          await page.getByRole("tab").nth(1).click();
          await page.locator("form input[type=password]").first().waitFor();
          await page.getByRole("tab").nth(1).and(page.locator("[data-state=active]")).waitFor();
          await checkScreen(page, "sign-up", "web/src/auth");
        });

        it("pricing", async () => {
          const page = await pageAs(owner.agent);
          await page.goto(url("/pricing"));
          await page.getByRole("region").nth(2).waitFor();
          await checkScreen(page, "pricing", "web/src/billing");
        });

        it("the dashboard's client list", async () => {
          const page = await pageAs(owner.agent);
          await page.goto(url("/"));
          const list = page.locator("nav.client-list");
          await list.getByText(LONG_CLIENT_NAME, { exact: true }).waitFor();
          await expect.poll(() => list.locator(".client-list__unread").count()).toBe(2);
          await checkScreen(page, "dashboard", "web/src/dashboard");
          if (!phone) {
            // Mirrored: the sidebar on the line's start, the right in a right-to-left page.
            const sidebar = await page.locator("aside.sidebar").boundingBox();
            if (locale === "rtl") expect(sidebar!.x).toBeGreaterThan(viewport.width / 2);
            else expect(sidebar!.x).toBe(0);
          }
        });

        it("an open conversation: messages, a file for approval and a note", async () => {
          const page = await pageAs(owner.agent);
          await page.goto(url(`/?client=${client.id}`));
          const log = page.getByRole("log");
          await log.getByText(MESSAGES[0]!).waitFor();
          await log.getByText(NOTE).waitFor();
          await log.locator(".file-message__card").getByText(FILE_NAME).waitFor();
          await checkScreen(page, "conversation", "web/src/conversation");
          // Mirrored: the owner's own messages on the line's end (left in right to left).
          const own = await log.getByText(MESSAGES[1]!).boundingBox();
          const theirs = await log.getByText(MESSAGES[0]!).boundingBox();
          if (locale === "rtl") expect(own!.x).toBeLessThan(theirs!.x);
          else expect(own!.x).toBeGreaterThan(theirs!.x);
        });

        it("the add-client dialog", async () => {
          const page = await pageAs(owner.agent);
          await page.goto(url("/"));
          await page.getByRole("button", { name: named(locale, "Add Client") }).click();
          const dialog = page.getByRole("dialog");
          await dialog.locator("input").first().waitFor();
          await checkScreen(page, "add-client", "web/src/dashboard");
        });

        it("each tab of the account settings dialog", async () => {
          const page = await pageAs(owner.agent);
          await page.goto(url("/"));
          await page.getByRole("button", { name: named(locale, "Account settings") }).click();
          const dialog = page.getByRole("dialog");
          const tabs = dialog.getByRole("tab");
          await tabs.first().waitFor();
          const count = await tabs.count();
          expect(count).toBeGreaterThanOrEqual(6);
          for (let index = 0; index < count; index += 1) {
            await tabs.nth(index).click();
            await tabs.nth(index).and(page.locator("[data-state=active]")).waitFor();
            const panel = dialog.getByRole("tabpanel");
            await panel.waitFor();
            // Each tab loads its data: its panel shows more than a spinner.
            await expect.poll(() => panel.locator(".spinner, .centered-spinner").count()).toBe(0);
            await checkScreen(page, `settings-tab-${index + 1}`, "web/src/settings");
          }
        }, 60_000);

        it.runIf(phone)("the client portal: conversation, attachments and settings", async () => {
          const page = await pageAs(client.agent);
          await page.goto(url(`/client/${client.id}`));
          const log = page.getByRole("log");
          await log.getByText(MESSAGES[0]!).waitFor();
          await log.locator(".file-message__card").getByText(FILE_NAME).waitFor();
          await checkScreen(page, "portal-conversation", "web/src/client-portal");
          const tabs = page.getByRole("tab");
          await tabs.nth(1).click();
          await page.getByRole("tabpanel").getByText(FILE_NAME).first().waitFor();
          await checkScreen(page, "portal-attachments", "web/src/client-portal");
          await tabs.nth(2).click();
          await page.getByRole("tabpanel").locator("input, button").first().waitFor();
          await checkScreen(page, "portal-settings", "web/src/client-portal");
        });
      });
});
