import type { Browser, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient, setTier } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { expectPath, openPage } from "../support/page";
import { type TestAgent, type TestServer, startTestServer } from "../support/server";
import { linkIn } from "../support/smtp";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { shoot, VIEWPORTS } from "./portal-checks";

const SCHEME = { primaryColor: "#6b21a8", backgroundColor: "#fbf7ff", textColor: "#1e1030" };
const NEW_SCHEME = { primaryColor: "#0f6b3a", backgroundColor: "#f4fbf6", textColor: "#0b2416" };

/** "rgb(r, g, b)" as the browser reports a computed colour of "#rrggbb". */
function rgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

async function upload(
  agent: TestAgent,
  route: string,
  field: string,
  image: Buffer,
): Promise<string> {
  const body = new FormData();
  body.append(field, new Blob([new Uint8Array(image)], { type: "image/png" }), `${field}.png`);
  const answer = await agent.request("POST", route, { body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.user[field] as string;
}

/** A wordmark-like logo and a face-like picture, made with sharp. */
const logoPng = () =>
  sharp({
    create: { width: 320, height: 80, channels: 4, background: SCHEME.primaryColor },
  })
    .composite([
      {
        input: Buffer.from(
          '<svg width="320" height="80"><text x="20" y="54" font-size="40" font-family="sans-serif" fill="#fff">LUMEN</text></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();
const picturePng = () =>
  sharp({ create: { width: 96, height: 96, channels: 3, background: "#e0a96d" } })
    .composite([
      {
        input: Buffer.from(
          '<svg width="96" height="96"><circle cx="48" cy="38" r="18" fill="#5a3a1a"/><ellipse cx="48" cy="90" rx="34" ry="26" fill="#5a3a1a"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();

describe.skipIf(!browserAvailable)("the owner's branding in the portal", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** An agency owner with a company name, colour scheme, logo and profile picture. */
  async function agencyOwner(): Promise<SignedInOwner & { picture: string }> {
    const owner = await signUpOwner(server, "Ada Lovelace");
    await setTier(owner.id, "agency");
    await owner.agent.patch("/api/user/profile", {
      fullName: "Ada Lovelace",
      companyName: "Lumen Studio",
    });
    await owner.agent.patch("/api/user/color-scheme", SCHEME);
    await upload(owner.agent, "/api/user/company-logo", "companyLogo", await logoPng());
    const picture = await upload(
      owner.agent,
      "/api/user/profile-picture",
      "profilePicture",
      await picturePng(),
    );
    return { ...owner, picture };
  }

  const brandPrimary = (page: Page) =>
    page.evaluate(() =>
      getComputedStyle(document.querySelector(".portal") as Element)
        .getPropertyValue("--brand-primary")
        .trim(),
    );
  const headerBackground = (page: Page) =>
    page.evaluate(
      () => getComputedStyle(document.querySelector(".portal-header") as Element).backgroundColor,
    );

  for (const viewport of VIEWPORTS) {
    it(`shows the owner's picture in the header and beside their messages, and takes new colours live (${viewport.name})`, async () => {
      const owner = await agencyOwner();
      const client = await addJoinedClient(server, owner, { name: "Carla Client" });
      await owner.agent.post(`/api/clients/${client.id}/messages`, {
        content: "Here is the first draft.",
      });
      await owner.agent.post(`/api/clients/${client.id}/messages`, {
        content: "Tell me what you think.",
      });

      const page = await openPage(browser, server.url, client.agent, { viewport });
      await page.goto(`/client/${client.id}`);
      const log = page.getByRole("log");
      await log.getByText("Tell me what you think.").waitFor();

      // The header: the company logo, and the owner's picture with the name the portal gives
      // them (the company name when set: shared/owner-name.ts).
      await page.locator(".portal-header").getByRole("img", { name: "Lumen Studio" }).waitFor();
      const contact = page.locator(".portal-header__contact");
      await contact.getByText("Lumen Studio").waitFor();
      expect(await contact.locator("img").getAttribute("src")).toBe(owner.picture);
      await expect
        .poll(() => contact.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0);
      // Beside the owner's messages: once per group, at its start.
      const avatars = log.locator(".message--other .message__avatar img");
      expect(await avatars.count()).toBe(1);
      expect(await avatars.first().getAttribute("src")).toBe(owner.picture);
      expect(await brandPrimary(page)).toBe(SCHEME.primaryColor);
      expect(await headerBackground(page)).toBe(rgb(SCHEME.backgroundColor));
      await expectNoSeriousAxeViolations(page, `portal branding: ${page.url()}`);
      await shoot(page, `branded-portal-${viewport.name}`);

      // The owner changes the colour scheme: the open portal follows without a reload.
      await page.evaluate(() => {
        (window as unknown as { stillThisPage: boolean }).stillThisPage = true;
      });
      expect((await owner.agent.patch("/api/user/color-scheme", NEW_SCHEME)).status).toBe(200);
      await expect.poll(() => brandPrimary(page)).toBe(NEW_SCHEME.primaryColor);
      await expect.poll(() => headerBackground(page)).toBe(rgb(NEW_SCHEME.backgroundColor));
      expect(
        await page.evaluate(() => (window as unknown as { stillThisPage?: boolean }).stillThisPage),
      ).toBe(true);

      // A new picture and company name reach it the same way.
      const newPicture = await upload(
        owner.agent,
        "/api/user/profile-picture",
        "profilePicture",
        await picturePng(),
      );
      await expect.poll(() => contact.locator("img").getAttribute("src")).toBe(newPicture);
      await expect.poll(() => avatars.first().getAttribute("src")).toBe(newPicture);
      await shoot(page, `branded-portal-recoloured-${viewport.name}`);
    });

    it(`brands the signed-out and sign-in-link pages of the owner's clients (${viewport.name})`, async () => {
      const owner = await agencyOwner();
      const client = await addJoinedClient(server, owner, { name: "Carla Client" });

      // Logging out: the signed-out page keeps the owner's brand (this browser knows the conversation).
      const page = await openPage(browser, server.url, client.agent, { viewport });
      await page.goto(`/client/${client.id}`);
      await page.getByRole("log").waitFor();
      await page.getByRole("button", { name: "Log out" }).click();
      await expectPath(page, "/client/signed-out");
      await page.getByRole("heading", { name: "You're signed out" }).waitFor();
      const brand = page.locator(".branded-page__brand").getByRole("img", { name: "Lumen Studio" });
      await brand.waitFor();
      await expect
        .poll(() => brand.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0);
      await expect.poll(() => brandPrimary(page)).toBe(SCHEME.primaryColor);
      await expectNoSeriousAxeViolations(page, `portal branding: ${page.url()}`);
      await shoot(page, `branded-signed-out-${viewport.name}`);

      // The mailed sign-in link, opened on another device, wears the brand too.
      await page.getByLabel("Your email address").fill(client.email);
      await page.getByRole("button", { name: "Email me a sign-in link" }).click();
      const mail = await server.smtp.waitFor(client.email, (m) =>
        m.subject.startsWith("Sign in to your conversation"),
      );
      const other = await openPage(browser, server.url, undefined, { viewport });
      await other.goto(linkIn(mail, "Sign in"));
      await other.getByRole("heading", { name: "Open your conversation" }).waitFor();
      await other
        .locator(".branded-page__brand")
        .getByRole("img", { name: "Lumen Studio" })
        .waitFor();
      await expect.poll(() => brandPrimary(other)).toBe(SCHEME.primaryColor);
      await expectNoSeriousAxeViolations(other, `portal branding: ${other.url()}`);
      await shoot(other, `branded-sign-in-link-${viewport.name}`);
      await other.getByRole("button", { name: "Sign in" }).click();
      await expectPath(other, `/client/${client.id}`);
    });
  }

  it("a non-agency owner's pages show ClientDesk's defaults", async () => {
    const owner = await signUpOwner(server, "Fred Free");
    await owner.agent.patch("/api/user/profile", { fullName: "Fred Free", companyName: "Fred Co" });
    const client = await addJoinedClient(server, owner);
    const page = await openPage(browser, server.url, undefined, { viewport: VIEWPORTS[0] });
    // The defaults show while the branding loads: check once its answer is in.
    const branding = page.waitForResponse((response) =>
      response.url().includes("/api/portal-branding?"),
    );
    await page.goto(`/client/${client.id}`);
    expect((await branding).status()).toBe(200);
    await page.getByRole("heading", { name: "Sign in to your conversation" }).waitFor();
    await page.locator(".branded-page__brand").getByText("ClientDesk").waitFor();
    expect(await page.getByText("Fred Co").count()).toBe(0);
    expect(await brandPrimary(page)).toBe("#0093ff");
  });
});
