import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, type JoinedClient } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { keepScreenshot, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";
import {
  addTeamMember,
  postAsTeamMember,
  type TeamMember,
  uploadProfilePicture,
} from "../support/team";

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

// Issue 26, "Who wrote it": a colleague's message names them (and shows their picture) in the
// owner's dashboard and in the client's portal, which still wears the agency's branding.
describe.skipIf(!browserAvailable)("who wrote each message", () => {
  let server: TestServer;
  let browser: Browser;
  let owner: SignedInOwner;
  let client: JoinedClient;
  let sam: TeamMember;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
    owner = await signUpOwner(server, "Olivia Owner");
    const profile = await owner.agent.patch("/api/user/profile", {
      fullName: "Olivia Owner",
      companyName: "Studio Olivia",
    });
    expect(profile.status).toBe(200);
    client = await addJoinedClient(server, owner, { name: "Carla Client" });
    sam = await addTeamMember(server, owner, { fullName: "Sam Staff" });
    await uploadProfilePicture(sam.agent, "#22aa55");
    const path = `/api/clients/${client.id}/messages`;
    expect((await owner.agent.post(path, { content: "Welcome aboard, Carla!" })).status).toBe(201);
    await postAsTeamMember(server, sam, client.id, "I'll be designing your new site.");
    await postAsTeamMember(server, sam, client.id, "First sketches come on Friday.");
    expect((await client.agent.post(path, { content: "Great, thanks Sam!" })).status).toBe(201);
    expect((await owner.agent.post(path, { content: "Ping us any time." })).status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The list item of the message whose text is `text`. */
  const message = (page: Page, text: string): Locator =>
    page.getByRole("log").getByRole("listitem").filter({ hasText: text });

  /** Whether the picture in `avatar` has loaded (the server let this viewer have it). */
  const pictureLoaded = (avatar: Locator) =>
    avatar.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

  /** The text a screen reader is given for a message (its accessibility tree, one line). */
  const spoken = async (item: Locator) => (await item.ariaSnapshot()).replace(/\s+/g, " ");

  it("the client portal on a phone names the colleague and shows their picture, under the agency's name", async () => {
    const page = await openPage(browser, server.url, client.agent, { viewport: PHONE });
    await page.goto(`/client/${client.id}`);
    const first = message(page, "I'll be designing your new site.");
    await first.waitFor();
    // The header still shows the agency.
    await page.locator(".portal-header").getByText("Studio Olivia", { exact: true }).waitFor();

    // Sam's first message: their name, the agency beside it, their picture.
    expect(await first.locator(".message__author").textContent()).toBe("Sam Staff");
    expect(await first.locator(".message__side").textContent()).toBe("Studio Olivia");
    await expect.poll(() => pictureLoaded(first.locator(".message__avatar"))).toBe(true);
    expect(await spoken(first)).toContain("Sam Staff , Studio Olivia");
    // Their next message follows in the same group: the name is for screen readers only.
    const second = message(page, "First sketches come on Friday.");
    expect(await second.locator(".message__meta").count()).toBe(0);
    expect(await spoken(second)).toContain("Sam Staff");
    // The owner's messages are the owner's: their name (initials, no picture), the agency beside it.
    const welcome = message(page, "Welcome aboard, Carla!");
    expect(await welcome.locator(".message__sender").textContent()).toBe(
      "Olivia Owner·, Studio Olivia",
    );
    expect(await welcome.locator(".message__avatar").textContent()).toBe("OO");
    // The client's own message as before.
    expect(
      await message(page, "Great, thanks Sam!").locator(".message__sender").textContent(),
    ).toBe("Carla Client");

    // Nothing wider than the phone; the name line fits its message.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    const meta = await first.locator(".message__meta").boundingBox();
    const item = await first.boundingBox();
    expect(meta!.x + meta!.width).toBeLessThanOrEqual(item!.x + item!.width + 0.5);
    await keepScreenshot(page, "authors-portal");
    await page.close();
  });

  it("the owner's dashboard names the colleague on their messages", async () => {
    const page = await openPage(browser, server.url, owner.agent, { viewport: DESKTOP });
    await page.goto(`/?client=${client.id}`);
    const first = message(page, "I'll be designing your new site.");
    await first.waitFor();
    // Sam's messages follow the owner's own on the same side, under Sam's name and picture.
    expect(await first.locator(".message__sender").textContent()).toBe("Sam Staff");
    await expect.poll(() => pictureLoaded(first.locator(".message__meta-avatar"))).toBe(true);
    expect(await spoken(first)).toContain("Sam Staff");
    expect(await first.getAttribute("class")).toContain("message--own");
    // The owner's own messages carry no picture; the client's are named as before.
    const welcome = message(page, "Welcome aboard, Carla!");
    expect(await welcome.locator(".message__sender").textContent()).toBe("Olivia Owner");
    expect(await welcome.locator(".message__meta-avatar").count()).toBe(0);
    expect(
      await message(page, "Great, thanks Sam!").locator(".message__sender").textContent(),
    ).toBe("Carla Client");
    await keepScreenshot(page, "authors-dashboard");

    // A colleague's new message arrives live, under their name, and is announced.
    await postAsTeamMember(server, sam, client.id, "Sketches are in the Attachments tab.");
    const live = message(page, "Sketches are in the Attachments tab.");
    await live.waitFor();
    await page
      .getByRole("status")
      .getByText("New message from Sam Staff: Sketches are in the Attachments tab.")
      .waitFor();
    expect(await live.locator(".message__sender").textContent()).toBe("Sam Staff");
    await page.close();
  });

  it("the owner's dashboard names the colleague on a phone too", async () => {
    const page = await openPage(browser, server.url, owner.agent, { viewport: PHONE });
    await page.goto(`/?client=${client.id}`);
    const first = message(page, "I'll be designing your new site.");
    await first.waitFor();
    expect(await first.locator(".message__sender").textContent()).toBe("Sam Staff");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await keepScreenshot(page, "authors-dashboard");
    await page.close();
  });
});
