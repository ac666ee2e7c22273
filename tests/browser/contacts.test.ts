import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, setTier } from "../support/conversations";
import { signUpOwner, uniqueEmail } from "../support/factories";
import { expectPath, expectToast, keepScreenshot, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

// Issue 26, several people per client: the owner invites the client's director from the
// conversation's People dialog; she joins by her own link on her phone, writes, reads, and is
// removed again, which signs her out.
describe.skipIf(!browserAvailable)("a client's people", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const message = (page: Page, text: string): Locator =>
    page.getByRole("log").getByRole("listitem").filter({ hasText: text });

  it("invites a second person, shows who joined and read, and removes them", async () => {
    const owner = await signUpOwner(server, "Olga Owner");
    await setTier(owner.id, "agency");
    const client = await addJoinedClient(server, owner, { name: "Acme Corp" });
    await owner.agent.post(`/api/clients/${client.id}/messages`, { content: "Draft attached." });

    const page = await openPage(browser, server.url, owner.agent, {
      viewport: DESKTOP,
      defaultTimeout: 8000,
    });
    await page.goto(`/?client=${client.id}`);
    await message(page, "Draft attached.").waitFor();
    await page.getByRole("button", { name: "People at Acme Corp" }).click();
    const dialog = page.getByRole("dialog", { name: "People at Acme Corp" });
    const people = dialog.getByRole("list", { name: "People at Acme Corp" });
    await people.getByRole("listitem").filter({ hasText: "First contact" }).waitFor();

    const email = uniqueEmail("dora");
    await dialog.getByRole("textbox", { name: "Name" }).fill("Dora Director");
    await dialog.getByRole("textbox", { name: "Email" }).fill(email);
    await dialog.getByRole("button", { name: "Send invite" }).click();
    await expectToast(page, "Invite sent");
    const dora = people.getByRole("listitem").filter({ hasText: "Dora Director" });
    await dora.getByText("Invite pending").waitFor();
    await dialog.getByRole("button", { name: "Copy link" }).waitFor();
    await keepScreenshot(page, "contacts-dialog");
    const violations = await axeViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);

    // Dora opens the emailed link on her phone and writes in the same conversation.
    await server.mailSettled();
    const mail = await server.smtp.waitFor(email, (m) => m.text.includes("/invite/"));
    const link = mail.text.match(/\/invite\/[A-Za-z0-9_-]+/)![0];
    const phone = await openPage(browser, server.url, undefined, {
      viewport: PHONE,
      defaultTimeout: 8000,
    });
    await phone.goto(link);
    await expectPath(phone, `/client/${client.id}`);
    await message(phone, "Draft attached.").waitFor();
    const field = phone.getByRole("textbox", { name: /message/i });
    await field.fill("Dora here: looks good to me.");
    await field.press("Enter");
    // It reaches the owner's open conversation under her own name.
    const hers = message(page, "Dora here: looks good to me.");
    await hers.waitFor();
    expect(await hers.locator(".message__author").textContent()).toBe("Dora Director");

    // Her portal's settings say who else is on her side.
    await phone.getByRole("tab", { name: "Settings" }).click();
    const together = phone.getByRole("region", { name: "People in this conversation" });
    await together.getByText("Dora Director (you)").waitFor();
    await together.getByText("Acme Corp", { exact: true }).waitFor();
    await keepScreenshot(phone, "contacts-portal-people");

    // She has read the conversation; the dialog says so, opened again.
    await page.keyboard.press("Escape");
    await expect
      .poll(async () => {
        const listed = await owner.agent.get(`/api/clients/${client.id}/contacts`);
        return listed.body[1]?.readAt ?? null;
      })
      .not.toBeNull();
    await page.getByRole("button", { name: "People at Acme Corp" }).click();
    await dora.getByText(/Joined · Last read/).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );

    // Removed: asked once more, then gone, and her phone is signed out.
    await dora.getByRole("button", { name: "Remove Dora Director" }).click();
    await dora.getByRole("button", { name: "Yes, remove" }).click();
    await expectToast(page, "Dora Director removed");
    await dora.waitFor({ state: "detached" });
    expect((await phone.request.get("/api/user")).status()).toBe(401);
    await phone.reload();
    await phone.getByRole("heading", { name: "Sign in to your conversation" }).waitFor();
    await keepScreenshot(phone, "contacts-removed");
    await page.close();
    await phone.close();
  });

  it("fits the People dialog on a 360 px phone", async () => {
    const owner = await signUpOwner(server, "Olga Owner");
    const client = await addJoinedClient(server, owner, { name: "Acme Corp" });
    const page = await openPage(browser, server.url, owner.agent, { viewport: PHONE });
    await page.goto(`/?client=${client.id}`);
    await page.getByRole("button", { name: "People at Acme Corp" }).click();
    const dialog = page.getByRole("dialog", { name: "People at Acme Corp" });
    await dialog.getByText("First contact").waitFor();
    const send = await dialog.getByRole("button", { name: "Send invite" }).boundingBox();
    expect(send!.x + send!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await keepScreenshot(page, "contacts-dialog");
    await page.close();
  });
});
