import { createHash, randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type MutableToken, OAuth2Server } from "oauth2-mock-server";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousAxeViolations } from "../../tests/support/axe";
import { browserAvailable, launchBrowser } from "../../tests/support/browser";
import { uniqueEmail } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";

/**
 * The confirmation page between Google and the desktop app, in real Chromium: the form posts
 * must carry the page's Origin and be allowed, redirects included, by the page's CSP.
 */
let oauth: OAuth2Server;
let server: TestServer;
let browser: Browser;
let loopback: http.Server;
let loopbackPort: number;
const loopbackHits: URL[] = [];
let account = { sub: "", email: "", email_verified: true, name: "Dana Desktop" };

beforeAll(async () => {
  loopback = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    // Chromium also asks for /favicon.ico: only the callback is the app's business.
    if (url.pathname !== "/favicon.ico") loopbackHits.push(url);
    response.end("the app's loopback");
  });
  await new Promise<void>((resolve) => loopback.listen(0, "127.0.0.1", resolve));
  loopbackPort = (loopback.address() as AddressInfo).port;
  oauth = new OAuth2Server();
  await oauth.issuer.keys.generate("RS256");
  await oauth.start(0, "127.0.0.1");
  oauth.service.on("beforeTokenSigning", (token: MutableToken) => {
    Object.assign(token.payload, account);
  });
  server = await startTestServer({
    env: {
      GOOGLE_CLIENT_ID: "clientdesk-test.apps.googleusercontent.com",
      GOOGLE_CLIENT_SECRET: "test-google-client-secret",
      GOOGLE_ISSUER: oauth.issuer.url!,
    },
  });
  if (browserAvailable) browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await oauth?.stop();
  loopback?.close();
});
afterEach(() => {
  loopbackHits.length = 0;
});

/** Opens the desktop start as the app would and waits on the confirmation page. */
async function onConfirmationPage() {
  account = { ...account, sub: `google-${randomUUID()}`, email: uniqueEmail("desktop-page") };
  const verifier = randomBytes(32).toString("base64url");
  const state = randomBytes(16).toString("base64url");
  const query = new URLSearchParams({
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    state,
    port: String(loopbackPort),
  });
  const page = await browser.newPage();
  const refusals: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") refusals.push(message.text());
  });
  await page.goto(`${server.url}/auth/google/desktop?${query}`);
  await page.waitForURL(`${server.url}/auth/google/desktop/confirm`);
  return { page, state, verifier, refusals };
}

describe.skipIf(!browserAvailable)("the desktop sign-in confirmation page in Chromium", () => {
  it("asks first, and Continue (from the keyboard) brings the code to the app's loopback", async () => {
    const { page, state, verifier, refusals } = await onConfirmationPage();
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe("Sign in to the ClientDesk app?");
    await expect.poll(() => page.locator("main").textContent()).toContain(account.email);
    expect(loopbackHits).toEqual([]);
    await expectNoSeriousAxeViolations(page, "desktop sign-in confirmation");

    // Tab order: Cancel, then Continue; nothing is focused (and so pressed) by itself.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe("Continue");
    await page.keyboard.press("Enter");
    await expect.poll(() => loopbackHits.length).toBe(1);
    const delivered = loopbackHits[0]!;
    expect(delivered.pathname).toBe("/callback");
    expect(delivered.searchParams.get("state")).toBe(state);
    const code = delivered.searchParams.get("code") ?? "";
    expect(refusals).toEqual([]);

    const app = server.agent();
    expect(
      (await app.post("/api/auth/desktop/exchange", { code, codeVerifier: verifier })).status,
    ).toBe(200);
    expect((await app.get("/api/user")).body.email).toBe(account.email);
    // The browser itself signed nobody in.
    const cookies = await page.context().cookies(server.url);
    expect(cookies.map((cookie) => cookie.name)).not.toContain("sid");
    await page.close();
  });

  it("Cancel tells the app's loopback, with no code", async () => {
    const { page, state, refusals } = await onConfirmationPage();
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => loopbackHits.length).toBe(1);
    const delivered = loopbackHits[0]!;
    expect(delivered.searchParams.get("error")).toBe("cancelled");
    expect(delivered.searchParams.get("state")).toBe(state);
    expect(delivered.searchParams.has("code")).toBe(false);
    expect(refusals).toEqual([]);

    // Back and Continue again: the hand-off is spent, nothing more reaches the app. (Going
    // back while the loopback's page is still committing fails in Chromium: wait for it.)
    await page.waitForURL((url) => url.pathname === "/callback");
    await page.waitForLoadState("load");
    await page.goBack();
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe("This sign-in has expired");
    expect(loopbackHits).toHaveLength(1);
    await page.close();
  });
});
