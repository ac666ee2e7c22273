import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, describeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, type JoinedClient, setTier } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { keepScreenshot, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";
import { addStaff, uploadProfilePicture } from "../support/team";

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

// Issue 26, presence: the owner at a desk and a member on a phone open the same conversation;
// each sees the other there, then typing, the owner is warned when both type, and once the
// member's page closes the owner's line is empty again.
describe.skipIf(!browserAvailable)("presence", () => {
  let server: TestServer;
  let browser: Browser;
  let owner: SignedInOwner;
  let member: SignedInOwner;
  let client: JoinedClient;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "agency");
    member = await addStaff(server, owner, "member", "Sam Staff");
    await uploadProfilePicture(member.agent, "#7a5af8");
    client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const put = await owner.agent.put(`/api/clients/${client.id}/assignees`, {
      userIds: [member.id],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const path = `/api/clients/${client.id}/messages`;
    expect((await client.agent.post(path, { content: "Is the invoice ready?" })).status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The presence line above the composer (a polite live region). */
  const line = (page: Page): Locator => page.locator(".presence-bar");
  /** What the line says (its avatars' initials are pictures, not words). */
  const said = (page: Page) =>
    line(page).evaluate(
      (element) => element.querySelector(".presence-bar__text")?.textContent ?? "",
    );
  const says = (page: Page, text: string) =>
    expect.poll(() => said(page), { timeout: 10_000 }).toBe(text);

  it("shows colleagues viewing and typing live, warns of two replies, and clears when one leaves", async () => {
    const desk = await openPage(browser, server.url, owner.agent, { viewport: DESKTOP });
    await desk.goto(`/?client=${client.id}`);
    await desk.getByText("Is the invoice ready?").waitFor();
    expect(await line(desk).getAttribute("aria-live")).toBe("polite");
    expect(await said(desk)).toBe("");

    const phone = await openPage(browser, server.url, member.agent, { viewport: PHONE });
    await phone.goto(`/?client=${client.id}`);
    await phone.getByText("Is the invoice ready?").waitFor();
    await says(desk, "Sam is viewing");
    await says(phone, "Olivia is viewing");
    // The member's picture beside the line (their initials if it could not load).
    await line(desk).locator("img").waitFor();
    await keepScreenshot(desk, "presence-viewing");
    await keepScreenshot(phone, "presence-viewing");

    const phoneField = phone.getByRole("textbox", { name: "Message" });
    await phoneField.click();
    await phone.keyboard.type("Yes, sending it");
    await says(desk, "Sam is typing…");
    expect(await line(desk).getAttribute("class")).not.toContain("presence-bar--collision");

    // The owner starts a reply too: the line warns.
    const deskField = desk.getByRole("textbox", { name: "Message" });
    await deskField.click();
    await desk.keyboard.type("I'll");
    await says(desk, "Sam is typing a reply too");
    expect(await line(desk).getAttribute("class")).toContain("presence-bar--collision");
    await phone.keyboard.type(".");
    await says(phone, "Olivia is typing a reply too");
    await keepScreenshot(desk, "presence-collision");
    await keepScreenshot(phone, "presence-collision");
    const violations = await axeViolations(desk);
    expect(violations, describeViolations(violations)).toEqual([]);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );

    // The member sends: back to viewing at once, no need to wait for typing to run out.
    await phone.keyboard.press("Enter");
    await desk.getByRole("log").getByText("Yes, sending it.").first().waitFor();
    await says(desk, "Sam is viewing");
    await deskField.fill("");

    // The member's page closes: the owner's line empties.
    await phone.close();
    await says(desk, "");
    await keepScreenshot(desk, "presence-alone");
    await desk.close();
  });
});
