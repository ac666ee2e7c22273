/**
 * The desktop renderer in headless Chromium: the built out/renderer served by the app://
 * handler's own code (on a loopback port, since Chromium here has no app:// scheme), a stub
 * of the preload's window.clientdesk, and the server answered by Playwright routes.
 */
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../../tests/support/browser";
import { contentSecurityPolicy } from "../main/csp";
import { createAppProtocolHandler } from "../main/protocol";

const root = path.resolve(import.meta.dirname, "../..");
const SERVER = "http://server.test";
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
  accountTier: "pro",
  emailVerified: true,
  hasPassword: true,
  clientId: null,
};

function client(id: string, name: string, unreadCount: number) {
  return {
    id,
    name,
    email: `${id}@example.com`,
    inviteToken: null,
    joinedAt: "2026-01-02T10:00:00.000Z",
    emailNotificationDelay: 5,
    createdAt: "2026-01-01T10:00:00.000Z",
    unreadCount,
    awaitingReply: unreadCount > 0,
    lastMessageAt: "2026-01-03T10:00:00.000Z",
    owner: { ...owner, accountTier: "pro" },
  };
}

describe.skipIf(!browserAvailable)("desktop renderer in Chromium", () => {
  let server: Server;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    const { build } = await import("electron-vite");
    await build({ configFile: path.join(root, "electron.vite.config.ts"), logLevel: "warn" });
    const handler = createAppProtocolHandler({
      rendererRoot: path.join(root, "out/renderer"),
      csp,
    });
    server = createServer(async (req, res) => {
      const answer = await handler(new Request(`app://clientdesk${req.url ?? "/"}`));
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function openApp(signedIn: boolean): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/.test(message.text()))
        errors.push(message.text());
    });
    await page.addInitScript((serverUrl) => {
      const w = window as unknown as Record<string, unknown>;
      const listeners: ((clientId: string) => void)[] = [];
      w.__desktop = { unread: [] as number[], notifications: [] as unknown[], listeners };
      w.clientdesk = {
        showNotification: async (notification: unknown) => {
          (w.__desktop as { notifications: unknown[] }).notifications.push(notification);
        },
        onOpenConversation: (callback: (clientId: string) => void) => {
          listeners.push(callback);
          return () => listeners.splice(listeners.indexOf(callback), 1);
        },
        getServerUrl: () => serverUrl,
        setUnreadCount: async (count: number) => {
          (w.__desktop as { unread: number[] }).unread.push(count);
        },
      };
    }, SERVER);
    await page.route(`${SERVER}/**`, async (route) => {
      const url = new URL(route.request().url());
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
      if (url.pathname === "/api/clients") {
        return json(200, [client("c1", "Acme Co", 2), client("c2", "Beta Studio", 0)]);
      }
      if (url.pathname === "/api/auth/google-available") return json(200, { available: false });
      if (url.pathname === "/api/user/account-tier") {
        return json(200, {
          currentTier: "pro",
          clientCount: 2,
          canCreateMore: true,
          tierConfig: {
            name: "Pro",
            clientLimit: 10,
            logoSupport: false,
            colorCustomization: false,
          },
        });
      }
      if (url.pathname === "/api/subscription/status") {
        return json(200, {
          accountTier: "pro",
          subscriptionStatus: "active",
          subscriptionEndDate: null,
          paymentFailureGraceEnd: null,
        });
      }
      if (url.pathname.startsWith("/api/clients/") && url.pathname.endsWith("/messages"))
        return json(200, []);
      return json(404, { message: "Not found" });
    });
    await page.goto(`${origin}/`);
    return { page, errors };
  }

  it("mounts the owner app with the desktop platform: signed out, the sign-in page", async () => {
    const { page, errors } = await openApp(false);
    await page.waitForURL(/\/auth$/);
    await page.getByRole("tab", { name: "Sign In" }).waitFor();
    mkdirSync(path.join(root, "test-results"), { recursive: true });
    await page.screenshot({ path: path.join(root, "test-results/desktop-renderer-auth.png") });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("signed in: the dashboard, the unread total for the tray, and open-conversation from main", async () => {
    const { page, errors } = await openApp(true);
    await page.getByText("Acme Co").first().waitFor();
    await expect
      .poll(() =>
        page.evaluate(() =>
          (window as unknown as { __desktop: { unread: number[] } }).__desktop.unread.at(-1),
        ),
      )
      .toBe(2);
    await page.screenshot({ path: path.join(root, "test-results/desktop-renderer-dashboard.png") });

    // Main sends open-conversation after a notification click.
    await page.evaluate(() => {
      const desktop = (window as unknown as { __desktop: { listeners: ((id: string) => void)[] } })
        .__desktop;
      for (const listener of desktop.listeners) listener("c2");
    });
    await page.waitForURL(/\?client=c2$/);
    await page.getByRole("heading", { name: "Beta Studio" }).waitFor();
    await page.screenshot({
      path: path.join(root, "test-results/desktop-renderer-conversation.png"),
    });
    expect(errors).toEqual([]);
    await page.close();
  });
});
