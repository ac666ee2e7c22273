import { readFile } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, type JoinedClient, setTier } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { expectToast, keepScreenshot, openPage } from "../support/page";
import { minimalPdf } from "../support/pdf";
import { type TestServer, startTestServer } from "../support/server";
import { sha256, unzip } from "../support/zip-download";

// Issue 28, point 4: staff export a conversation from its header and the workspace from
// Account Settings; a client's person downloads their own data from the portal's settings.
// Exports over EXPORT_INLINE_MAX_BYTES (lowered to 2,000 bytes here) say they will be emailed.

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 375, height: 667 };
const today = new Date().toISOString().slice(0, 10);

describe.skipIf(!browserAvailable)("exports", () => {
  let server: TestServer;
  let browser: Browser;
  let owner: SignedInOwner;
  let acme: JoinedClient;
  const brief = minimalPdf("Acme brief");

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startTestServer({ env: { EXPORT_INLINE_MAX_BYTES: "2000" } }),
      launchBrowser(),
    ]);
    owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "agency");
    acme = await addJoinedClient(server, owner, { name: "Acme Studio" });
    await owner.agent.post(`/api/clients/${acme.id}/messages`, { content: "Here is the brief." });
    await owner.agent.post(`/api/clients/${acme.id}/messages`, {
      content: "Team only: they pay late",
      visibility: "internal",
    });
    const body = new FormData();
    body.append(
      "file",
      new Blob([new Uint8Array(brief)], { type: "application/pdf" }),
      "Brief.pdf",
    );
    body.append("requiresFeedback", "true");
    const sent = await owner.agent.request("POST", `/api/clients/${acme.id}/upload`, { body });
    expect(sent.status).toBe(201);
    await acme.agent.patch(`/api/messages/${sent.body.id}/feedback`, {
      feedbackStatus: "needs_work",
      feedbackComment: "Please use our new logo on page 2.",
    });
    await acme.agent.post(`/api/clients/${acme.id}/messages`, {
      content: "Thanks, otherwise it looks great!\nCan we talk on Friday?",
    });
    // A second client whose files take the workspace over the inline limit.
    const big = await addJoinedClient(server, owner, { name: "Big Co" });
    for (let index = 0; index < 5; index += 1) {
      const form = new FormData();
      form.append(
        "file",
        new Blob([new Uint8Array(minimalPdf(`big ${index}`))]),
        `big-${index}.pdf`,
      );
      await owner.agent.request("POST", `/api/clients/${big.id}/upload`, { body: form });
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Presses the focused button with the keyboard and reads the ZIP the browser saved. */
  async function downloadWithKeyboard(page: Page, key: "Enter" | " ") {
    const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press(key)]);
    const entries = await unzip(await readFile((await download.path())!));
    return { name: download.suggestedFilename(), entries };
  }

  for (const viewport of [DESKTOP, PHONE])
    it(`staff export a conversation, and are told a large workspace will be emailed (${viewport.width} px)`, async () => {
      const page = await openPage(browser, server.url, owner.agent, {
        viewport,
        defaultTimeout: 15_000,
      });
      await page.goto(`/?client=${acme.id}`);
      const button = page.getByRole("button", { name: "Export conversation with Acme Studio" });
      await button.focus();
      await expectNoSeriousAxeViolations(page, `dashboard with Export (${viewport.width} px)`);
      await keepScreenshot(page, "export-conversation");
      const saved = await downloadWithKeyboard(page, "Enter");
      expect(saved.name).toBe(`clientdesk-acme-studio-${today}.zip`);
      expect(sha256(saved.entries.get(`files/${today}-Brief.pdf/v1-Brief.pdf`)!)).toBe(
        sha256(brief),
      );
      expect(saved.entries.get("transcript.html")!.toString()).toContain(
        "Team only: they pay late",
      );
      await expectToast(page, "Export downloaded");
      await keepScreenshot(page, "export-conversation-done");
      // The transcript reads offline, on a phone too, and passes the same checks as the app.
      const transcript = await browser.newPage({ viewport });
      await transcript.setContent(saved.entries.get("transcript.html")!.toString());
      await transcript.getByText("Internal note", { exact: true }).waitFor();
      await expectNoSeriousAxeViolations(transcript, `transcript.html (${viewport.width} px)`);
      await keepScreenshot(transcript, "export-transcript");
      await transcript.close();

      // From the client list (on a phone the open conversation covers the sidebar).
      await page.goto("/");
      await page.getByRole("button", { name: "Account settings" }).click();
      const dialog = page.getByRole("dialog", { name: "Account Settings" });
      await dialog.getByRole("tab", { name: "Account" }).click();
      const section = dialog.getByRole("region", { name: "Export workspace" });
      await section.getByRole("button", { name: "Export workspace" }).focus();
      await page.keyboard.press("Enter");
      await expectToast(page, "We'll email you a link");
      await page
        .locator(".toast")
        .getByText(/email you a link to download it \(valid for 24 hours\)/)
        .waitFor();
      await expectNoSeriousAxeViolations(page, `export workspace (${viewport.width} px)`);
      await keepScreenshot(page, "export-workspace-mailed");
      await page.close();
    }, 90_000);

  it("a client's person downloads their own data from the portal's settings, without notes (375 px)", async () => {
    const page = await openPage(browser, server.url, acme.agent, {
      viewport: PHONE,
      defaultTimeout: 15_000,
    });
    await page.goto(`/client/${acme.id}`);
    await page.getByRole("tab", { name: "Settings" }).click();
    const section = page.getByRole("region", { name: "Your data" });
    const button = section.getByRole("button", { name: "Download my data" });
    await button.scrollIntoViewIfNeeded();
    await button.focus();
    await expectNoSeriousAxeViolations(page, "portal settings with Download my data (375 px)");
    await keepScreenshot(page, "export-portal");
    const saved = await downloadWithKeyboard(page, " ");
    expect(saved.name).toBe(`clientdesk-acme-studio-${today}.zip`);
    expect(sha256(saved.entries.get(`files/${today}-Brief.pdf/v1-Brief.pdf`)!)).toBe(sha256(brief));
    const transcript = saved.entries.get("transcript.html")!.toString();
    expect(transcript).toContain("Here is the brief.");
    expect(transcript).not.toContain("they pay late");
    await expectToast(page, "Export downloaded");
    await page.close();
  }, 90_000);
});
