/**
 * What the desktop renderer's Chromium tests share: the built out-<name>/renderer served by the
 * app:// handler's own code (on a loopback port, since Chromium here has no app:// scheme) with
 * the app's CSP, a browser, and the server the page talks to, answered by Playwright routes.
 */
import { rmSync } from "node:fs";
import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser } from "../../tests/support/browser";
import {
  buildDesktopApp,
  type ServedRenderer,
  serveRenderer,
} from "../../tests/support/desktop-build";
import { contentSecurityPolicy } from "../main/csp";

/** The server's origin as the stub preloads give it (getServerUrl). */
export const SERVER = "http://server.test";

/** GET /api/user of the signed-in owner (tests spread their own tier and password flag in). */
export const owner = {
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
  accountTier: "pro",
  emailVerified: true,
  hasPassword: true,
  clientId: null,
};

export interface BuiltRenderer {
  /** Where the served renderer is, e.g. http://127.0.0.1:<port>. */
  readonly origin: string;
  readonly browser: Browser;
}

/**
 * Builds the desktop app into out-<name>/, serves its renderer and starts Chromium before the
 * file's tests, and undoes all of it after them.
 */
export function useBuiltRenderer(name: string): BuiltRenderer {
  let outFolder: string | undefined;
  let renderer: ServedRenderer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    outFolder = await buildDesktopApp(name);
    const csp = contentSecurityPolicy({
      server: { serverUrl: SERVER, websocketUrl: "ws://server.test/ws" },
    });
    renderer = await serveRenderer(outFolder, csp);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await renderer?.close();
    if (outFolder) rmSync(outFolder, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the renderer is not started yet (beforeAll)");
    return value;
  };
  return {
    get origin() {
      return started(renderer).origin;
    },
    get browser() {
      return started(browser);
    },
  };
}

/** Fulfils the request with a JSON answer (and the CORS headers main gives the app's pages). */
export type JsonAnswer = (status: number, body: unknown) => Promise<void>;

/** Answers every request of `page` to SERVER with `answer`. */
export async function answerServer(
  page: Page,
  appOrigin: string,
  answer: (url: URL, json: JsonAnswer, route: Route) => Promise<void>,
): Promise<void> {
  await page.route(`${SERVER}/**`, async (route) => {
    const json: JsonAnswer = (status, body) =>
      route.fulfill({
        status,
        contentType: "application/json",
        headers: {
          "Access-Control-Allow-Origin": appOrigin,
          "Access-Control-Allow-Credentials": "true",
        },
        body: JSON.stringify(body),
      });
    await answer(new URL(route.request().url()), json, route);
  });
}

/** The plan box's two answers for an owner on `tier` with `clientCount` clients, by path. */
export function planAnswers(tier: "free" | "pro", clientCount: number): Record<string, unknown> {
  const pro = tier === "pro";
  return {
    "/api/user/account-tier": {
      currentTier: tier,
      clientCount,
      canCreateMore: true,
      tierConfig: {
        name: pro ? "Pro" : "Free",
        clientLimit: pro ? 10 : 1,
        logoSupport: false,
        colorCustomization: false,
      },
    },
    "/api/subscription/status": {
      accountTier: tier,
      subscriptionStatus: pro ? "active" : null,
      subscriptionEndDate: null,
      paymentFailureGraceEnd: null,
    },
  };
}
