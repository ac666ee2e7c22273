import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, type JoinedClient } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { keepScreenshot, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

// Issue 26, internal notes: the owner writes a note and a reply from the composer; the
// client's portal, open at the same time on a phone, shows the reply live and never the note;
// the staff's conversation shows the note apart (yellow, "Internal note", a lock).
describe.skipIf(!browserAvailable)("internal notes", () => {
  let server: TestServer;
  let browser: Browser;
  let owner: SignedInOwner;
  let client: JoinedClient;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    owner = await signUpOwner(server, "Olivia Owner");
    client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const path = `/api/clients/${client.id}/messages`;
    expect((await client.agent.post(path, { content: "Can we see the logo?" })).status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const message = (page: Page, text: string): Locator =>
    page.getByRole("log").getByRole("listitem").filter({ hasText: text });
  /** A message the server has confirmed (it carries its id). */
  const stored = (item: Locator): Locator => item.and(item.page().locator("[data-message-id]"));

  it("keeps the owner's note on the team's side while the client's portal gets the reply", async () => {
    const portal = await openPage(browser, server.url, client.agent, { viewport: PHONE });
    await portal.goto(`/client/${client.id}`);
    await message(portal, "Can we see the logo?").waitFor();

    const page = await openPage(browser, server.url, owner.agent, { viewport: DESKTOP });
    await page.goto(`/?client=${client.id}`);
    await message(page, "Can we see the logo?").waitFor();

    // Keyboard only: Tab to "Internal note", Space picks it, the field says who sees it.
    const noteMode = page.getByRole("button", { name: "Internal note", exact: true });
    const replyMode = page.getByRole("button", { name: "Reply", exact: true });
    expect(await replyMode.getAttribute("aria-pressed")).toBe("true");
    await noteMode.focus();
    await page.keyboard.press("Space");
    expect(await noteMode.getAttribute("aria-pressed")).toBe("true");
    const field = page.getByRole("textbox", { name: "Internal note" });
    await field.waitFor();
    await page.getByText("Only your team sees this", { exact: true }).waitFor();
    expect(await page.locator(".composer").getAttribute("class")).toContain("composer--note");
    await keepScreenshot(page, "notes-composer");
    await field.fill("Carla prefers the blue version; check with Sam first.");
    await field.press("Enter");
    // The stored note, not its "Sending..." stand-in: that one is swapped out under a reading.
    const note = stored(message(page, "Carla prefers the blue version"));
    await note.waitFor();
    expect(await note.getAttribute("class")).toContain("message--note");
    await note.getByText("Internal note").waitFor();
    expect((await note.ariaSnapshot()).replace(/\s+/g, " ")).toContain("Internal note");
    const bubble = await note
      .locator(".message__bubble")
      .evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(bubble).toBe("rgb(254, 243, 199)");

    // Back to Reply: the next message goes to the client.
    await replyMode.click();
    const replyField = page.getByRole("textbox", { name: "Message" });
    await replyField.fill("Here is the logo in blue.");
    await replyField.press("Enter");
    const reply = stored(message(page, "Here is the logo in blue."));
    await reply.waitFor();
    expect(await reply.getAttribute("class")).not.toContain("message--note");
    expect(await reply.locator(".message__bubble").getAttribute("class")).toBe("message__bubble");

    // The portal, open all along: the reply arrives live, the note never.
    await message(portal, "Here is the logo in blue.").waitFor();
    expect(await portal.getByText("Carla prefers the blue version").count()).toBe(0);
    expect(await portal.getByText("Internal note").count()).toBe(0);
    expect(await portal.getByRole("button", { name: "Internal note", exact: true }).count()).toBe(
      0,
    );
    // Nor after a reload (the portal's first screen).
    await portal.reload();
    await message(portal, "Here is the logo in blue.").waitFor();
    expect(await portal.content()).not.toContain("Carla prefers the blue version");
    expect(await portal.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await keepScreenshot(portal, "notes-portal");

    await keepScreenshot(page, "notes-dashboard");
    const violations = await axeViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);
    await page.close();
    await portal.close();
  });

  it("fits the note toggle and a note on a 360 px phone", async () => {
    const page = await openPage(browser, server.url, owner.agent, { viewport: PHONE });
    await page.goto(`/?client=${client.id}`);
    const note = message(page, "Carla prefers the blue version");
    await note.waitFor();
    await page.getByRole("button", { name: "Internal note", exact: true }).click();
    await page.getByText("Only your team sees this", { exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    const send = await page.getByRole("button", { name: "Save internal note" }).boundingBox();
    expect(send!.x + send!.width).toBeLessThanOrEqual(PHONE.width);
    await keepScreenshot(page, "notes-dashboard");
    await page.close();
  });
});
