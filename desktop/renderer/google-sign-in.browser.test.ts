/**
 * The desktop renderer's Google button in headless Chromium: it asks main (a stub of the
 * preload's window.clientdesk) instead of navigating, waits with a Cancel, shows a failure,
 * and lands on the dashboard once main reports the app signed in.
 */
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../../tests/support/browser";
import {
  buildDesktopApp,
  type ServedRenderer,
  serveRenderer,
} from "../../tests/support/desktop-build";
import { contentSecurityPolicy } from "../main/csp";

const _root = path.resolve(import.meta.dirname, "../..");
const SERVER = "http://server.test";
const shots = process.env.SCREENSHOT_DIR;
const csp = contentSecurityPolicy({
  server: { serverUrl: SERVER, websocketUrl: "ws://server.test/ws" },
});

const owner = {
  id: "u1",
  email: "owner@example.com",
  fullName: "Olivia Owner",
  companyName: "Olivia Design",
  role: "owner",
  profilePicture: null,
  companyLogo: null,
  primaryColor: "#0093ff",
  backgroundColor: "#ffffff",
  textColor: "#000000",
  emailNotificationDelay: 5,
  accountTier: "free",
  emailVerified: true,
  hasPassword: false,
  clientId: null,
};

describe.skipIf(!browserAvailable)("desktop renderer: Google sign-in through main", () => {
  let outFolder: string;
  let renderer: ServedRenderer;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    outFolder = await buildDesktopApp("google-test");
    renderer = await serveRenderer(outFolder, csp);
    origin = renderer.origin;
    browser = await launchBrowser();
    if (shots) mkdirSync(shots, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await renderer?.close();
    if (outFolder) rmSync(outFolder, { recursive: true, force: true });
  });

  /** The app signed out, with a stub preload whose sign-in the test ends by hand. */
  async function openSignedOut(): Promise<{
    page: Page;
    serverPaths: string[];
    signInOnServer: () => void;
  }> {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    let signedIn = false;
    const serverPaths: string[] = [];
    await page.addInitScript((serverUrl) => {
      const w = window as unknown as Record<string, unknown>;
      const google = { calls: 0, cancels: 0, finish: (_result: unknown) => {} };
      w.__google = google;
      w.clientdesk = {
        showNotification: async () => {},
        onOpenConversation: () => () => {},
        getServerUrl: () => serverUrl,
        setUnreadCount: async () => {},
        signInWithGoogle: () => {
          google.calls += 1;
          return new Promise((resolve) => {
            google.finish = resolve;
          });
        },
        cancelGoogleSignIn: async () => {
          google.cancels += 1;
          google.finish({ outcome: "cancelled" });
        },
      };
    }, SERVER);
    await page.route(`${SERVER}/**`, async (route) => {
      const url = new URL(route.request().url());
      serverPaths.push(url.pathname);
      const json = (status: number, body: unknown) =>
        route.fulfill({
          status,
          contentType: "application/json",
          headers: {
            "Access-Control-Allow-Origin": origin,
            "Access-Control-Allow-Credentials": "true",
          },
          body: JSON.stringify(body),
        });
      if (url.pathname === "/api/user")
        return signedIn ? json(200, owner) : json(401, { message: "Not signed in" });
      if (url.pathname === "/api/auth/google-available") return json(200, { available: true });
      if (url.pathname === "/api/clients") return json(200, []);
      if (url.pathname === "/api/user/account-tier") {
        return json(200, {
          currentTier: "free",
          clientCount: 0,
          canCreateMore: true,
          tierConfig: {
            name: "Free",
            clientLimit: 1,
            logoSupport: false,
            colorCustomization: false,
          },
        });
      }
      if (url.pathname === "/api/subscription/status") {
        return json(200, {
          accountTier: "free",
          subscriptionStatus: null,
          subscriptionEndDate: null,
          paymentFailureGraceEnd: null,
        });
      }
      return json(404, { message: "Not found" });
    });
    await page.goto(`${origin}/`);
    await page.waitForURL(/\/auth$/);
    return {
      page,
      serverPaths,
      signInOnServer: () => {
        signedIn = true;
      },
    };
  }

  const finishSignIn = (page: Page, result: unknown) =>
    page.evaluate((value) => {
      (window as unknown as { __google: { finish(result: unknown): void } }).__google.finish(value);
    }, result);

  const googleCalls = (page: Page) =>
    page.evaluate(
      () => (window as unknown as { __google: { calls: number; cancels: number } }).__google,
    );

  it("asks main instead of navigating, waits with a Cancel, and shows a failure", async () => {
    const { page, serverPaths } = await openSignedOut();
    const google = page.getByRole("button", { name: "Sign in with Google" });
    await google.click();

    const waiting = page.getByRole("status").filter({ hasText: "Continue in your browser…" });
    await waiting.waitFor();
    expect(await googleCalls(page)).toMatchObject({ calls: 1 });
    expect(page.url()).toMatch(/\/auth$/);
    if (shots) await page.screenshot({ path: path.join(shots, "desktop-google-waiting.png") });

    await page.getByRole("button", { name: "Cancel" }).click();
    await google.waitFor();
    expect(await googleCalls(page)).toMatchObject({ calls: 1, cancels: 1 });
    expect(await waiting.count()).toBe(0);

    await google.click();
    await waiting.waitFor();
    await finishSignIn(page, { outcome: "failed", reason: "google" });
    await page
      .getByRole("alert")
      .filter({ hasText: "Google sign-in failed. Try again." })
      .waitFor();
    await google.waitFor();
    if (shots) await page.screenshot({ path: path.join(shots, "desktop-google-failed.png") });

    // The window itself never went to the server's Google pages.
    expect(serverPaths.filter((pathname) => pathname.startsWith("/auth/"))).toEqual([]);
    await page.close();
  });

  it("lands on the dashboard once main reports the app signed in", async () => {
    const { page, signInOnServer } = await openSignedOut();
    await page.getByRole("button", { name: "Sign in with Google" }).click();
    await page.getByText("Continue in your browser…").waitFor();
    signInOnServer();
    await finishSignIn(page, { outcome: "signed-in" });
    await page.waitForURL((url) => url.pathname === "/");
    await page
      .getByRole("button", { name: /Olivia Owner|account/i })
      .first()
      .waitFor();
    if (shots) await page.screenshot({ path: path.join(shots, "desktop-google-signed-in.png") });
    await page.close();
  });
});
