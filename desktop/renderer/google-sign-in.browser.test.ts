/**
 * The desktop renderer's Google button in headless Chromium: it asks main (a stub of the
 * preload's window.clientdesk) instead of navigating, waits with a Cancel, shows a failure,
 * and lands on the dashboard once main reports the app signed in.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserAvailable } from "../../tests/support/browser";
import { keepScreenshot } from "../../tests/support/page";
import {
  answerServer,
  owner,
  planAnswers,
  SERVER,
  useBuiltRenderer,
} from "../test/renderer-harness";

/** Signed up with Google: no password, on the free plan. */
const googleOwner = { ...owner, accountTier: "free", hasPassword: false };

describe.skipIf(!browserAvailable)("desktop renderer: Google sign-in through main", () => {
  const app = useBuiltRenderer("google-test");

  /** The app signed out, with a stub preload whose sign-in the test ends by hand. */
  async function openSignedOut(): Promise<{
    page: Page;
    serverPaths: string[];
    signInOnServer: () => void;
  }> {
    const page = await app.browser.newPage({ viewport: { width: 1100, height: 900 } });
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
    const plan = planAnswers("free", 0);
    await answerServer(page, app.origin, async (url, json) => {
      serverPaths.push(url.pathname);
      if (url.pathname === "/api/user")
        return signedIn ? json(200, googleOwner) : json(401, { message: "Not signed in" });
      if (url.pathname === "/api/auth/google-available") return json(200, { available: true });
      if (url.pathname === "/api/clients") return json(200, []);
      if (url.pathname in plan) return json(200, plan[url.pathname]);
      return json(404, { message: "Not found" });
    });
    await page.goto(`${app.origin}/`);
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
    await keepScreenshot(page, "desktop-google-waiting");

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
    await keepScreenshot(page, "desktop-google-failed");

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
    await keepScreenshot(page, "desktop-google-signed-in");
    await page.close();
  });
});
