import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addClient, addJoinedClient, setTier } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { expectPath, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";
import { linkIn } from "../support/smtp";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { shoot, VIEWPORTS } from "./portal-checks";

describe.skipIf(!browserAvailable)("a returning client", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const freshPage = (viewport: (typeof VIEWPORTS)[number]): Promise<Page> =>
    openPage(browser, server.url, undefined, { viewport });

  /** On the portal's sign-in page: asks for a link, follows the mailed one, lands in the conversation. */
  async function signInByEmail(page: Page, email: string, clientId: string) {
    await page.getByLabel("Your email address").fill(email);
    const earlier = new Set(server.smtp.mailsTo(email));
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.getByText("Check your email").waitFor();
    const mail = await server.smtp.waitFor(
      email,
      (received) =>
        !earlier.has(received) && received.subject.startsWith("Sign in to your conversation"),
    );
    await page.goto(linkIn(mail, "Sign in"));
    await page.getByRole("heading", { name: "Open your conversation" }).waitFor();
    await page.getByRole("button", { name: "Sign in" }).click();
    await expectPath(page, `/client/${clientId}`);
    await page.getByRole("log").waitFor();
  }

  for (const viewport of VIEWPORTS) {
    it(`opening a used invite link lands on the portal's sign-in page, and the mailed link signs in (${viewport.name})`, async () => {
      const owner = await signUpOwner(server, "Olivia Owner");
      const client = await addJoinedClient(server, owner, { name: "Carla Client" });
      await owner.agent.post(`/api/clients/${client.id}/messages`, { content: "Welcome back!" });

      const page = await freshPage(viewport);
      await page.goto(`/invite/${client.inviteToken}`);
      await page.getByRole("heading", { name: "This link was already used" }).waitFor();
      await page.getByRole("button", { name: "Email me a sign-in link" }).waitFor();
      // The portal's own page: not the owners' sign-in, no invalid-invite notice, no address given away.
      expect(new URL(page.url()).pathname).toBe(`/invite/${client.inviteToken}`);
      expect(await page.getByText("invalid", { exact: false }).count()).toBe(0);
      expect(await page.content()).not.toContain(client.email);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await expectNoSeriousAxeViolations(page, `returning client: ${page.url()}`);
      await shoot(page, `used-invite-${viewport.name}`);

      await signInByEmail(page, client.email, client.id);
      await page.getByRole("log").getByText("Welcome back!").waitFor();
      await shoot(page, `used-invite-signed-in-${viewport.name}`);
    });

    it(`/client, /invite and /client/{id} without a session show the sign-in page (${viewport.name})`, async () => {
      const owner = await signUpOwner(server);
      const client = await addJoinedClient(server, owner);
      const page = await freshPage(viewport);
      for (const address of ["/client", "/invite", `/client/${client.id}`]) {
        await page.goto(address);
        await page.getByRole("heading", { name: "Sign in to your conversation" }).waitFor();
        await page.getByRole("button", { name: "Email me a sign-in link" }).waitFor();
        expect(await page.getByText("Missing user or invite token").count(), address).toBe(0);
        await expectPath(page, address);
      }
      await expectNoSeriousAxeViolations(page, `returning client: ${page.url()}`);
      await shoot(page, `no-session-${viewport.name}`);
      await signInByEmail(page, client.email, client.id);
    });
  }

  it("a used short link lands on the sign-in page too, and the mailed link signs in (375 px)", async () => {
    const owner = await signUpOwner(server, "Paul Pro");
    await setTier(owner.id, "pro");
    const client = await addClient(owner, { name: "Dana Doe" });
    const { shortUrl } = (await owner.agent.post(`/api/clients/${client.id}/short-link`)).body;
    const joined = server.agent();
    expect((await joined.post(`/api/invite/${client.inviteToken}`)).status).toBe(200);

    const page = await freshPage(VIEWPORTS[0]);
    await page.goto(shortUrl);
    await page.getByRole("heading", { name: "This link was already used" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/client");
    await shoot(page, "used-short-link-phone");
    await signInByEmail(page, client.email, client.id);
  });

  it("a replaced invite link says it was used; a link that never existed says it is invalid, on the portal", async () => {
    const owner = await signUpOwner(server);
    const client = await addClient(owner);
    const { inviteToken } = (await owner.agent.post(`/api/clients/${client.id}/invite`)).body;
    expect(inviteToken).not.toBe(client.inviteToken);

    const page = await freshPage(VIEWPORTS[1]);
    await page.goto(`/invite/${client.inviteToken}`);
    await page.getByRole("heading", { name: "This link was already used" }).waitFor();

    await page.goto("/invite/AAAAAAAAAAAAAAAAAAAAAA");
    await page.getByText("This invite link is invalid or has already been used.").waitFor();
    await page.getByRole("button", { name: "Email me a sign-in link" }).waitFor();
    await expectPath(page, "/invite/AAAAAAAAAAAAAAAAAAAAAA");
    await expectNoSeriousAxeViolations(page, `returning client: ${page.url()}`);
    await shoot(page, "invalid-invite-desktop");

    // The live link still works.
    await page.goto(`/invite/${inviteToken}`);
    await expectPath(page, `/client/${client.id}`);
  });
});
