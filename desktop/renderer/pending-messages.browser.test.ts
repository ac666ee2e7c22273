/**
 * Unsent messages across a restart of the desktop app, in headless Chromium: the built
 * renderer, a stand-in for the preload's window.clientdesk whose loadPendingMessages answers
 * what main saved before the restart, and the server answered by Playwright routes.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserAvailable } from "../../tests/support/browser";
import { keepScreenshot } from "../../tests/support/page";
import type { PendingMessage } from "../../web/src/platform/pending-messages";
import {
  answerServer,
  owner,
  planAnswers,
  SERVER,
  useBuiltRenderer,
} from "../test/renderer-harness";

const acme = {
  id: "c1",
  name: "Acme Co",
  email: "c1@example.com",
  inviteToken: null,
  joinedAt: "2026-01-02T10:00:00.000Z",
  emailNotificationDelay: 5,
  createdAt: "2026-01-01T10:00:00.000Z",
  unreadCount: 0,
  awaitingReply: false,
  lastMessageAt: "2026-01-03T10:00:00.000Z",
  owner,
};

const earlier = {
  id: "m1",
  content: "Can we talk Monday?",
  fileUrl: null,
  fileName: null,
  senderRole: "client",
  senderName: "Acme Co",
  requiresFeedback: false,
  feedbackStatus: null,
  feedbackComment: null,
  createdAt: "2026-01-03T10:00:00.000Z",
};

const queued: PendingMessage = {
  clientId: "c1",
  key: "3f1c2a4e-8b7d-4c1e-9a2b-5d6e7f8a9b0c",
  content: "Monday works, 10am?",
  afterId: "m1",
  since: Date.now() - 60 * 60_000,
};
const notSent: PendingMessage = {
  clientId: "c1",
  key: "0b6a4f7e-1c2d-4e3f-8a9b-0c1d2e3f4a5b",
  content: "Also: the invoice is attached",
  afterId: "m1",
  failed: true,
  reason: "Client not found",
  since: Date.now() - 60 * 60_000,
};

/** Queued longer than the server keeps keys: it may be stored already, so it is not sent. */
const stale: PendingMessage = {
  clientId: "c1",
  key: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a",
  content: "Sent from the airport",
  since: Date.now() - 25 * 60 * 60_000,
};

interface Stand {
  loads: string[];
  saves: { userId: string; messages: PendingMessage[] }[];
  answerLoad: ((messages: PendingMessage[]) => void) | null;
}

describe.skipIf(!browserAvailable)("desktop renderer: unsent messages across a restart", () => {
  const app = useBuiltRenderer("pending-messages-test");

  async function openApp() {
    const context = await app.browser.newContext({ viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.addInitScript((serverUrl) => {
      const w = window as unknown as Record<string, unknown>;
      const stand = { loads: [] as string[], saves: [] as unknown[], answerLoad: null as unknown };
      w.__desktop = stand;
      w.clientdesk = {
        showNotification: async () => {},
        onOpenConversation: () => () => {},
        getServerUrl: () => serverUrl,
        setUnreadCount: async () => {},
        uploadFile: async () => ({ outcome: "cancelled" }),
        onUploadProgress: () => () => {},
        cancelUpload: async () => {},
        // Main answers once the test says what it saved before the restart.
        loadPendingMessages: (userId: string) =>
          new Promise((resolve) => {
            stand.loads.push(userId);
            stand.answerLoad = resolve;
          }),
        savePendingMessages: async (userId: string, messages: unknown[]) => {
          // What crosses the context bridge is a copy.
          stand.saves.push({ userId, messages: JSON.parse(JSON.stringify(messages)) });
        },
      };
    }, SERVER);

    const posted: { key: string | null; content: string }[] = [];
    const stored = [earlier];
    const plan = planAnswers("pro", 1);
    await answerServer(page, app.origin, async (url, json, route) => {
      const request = route.request();
      if (url.pathname === "/api/user") return json(200, owner);
      if (url.pathname === "/api/clients") return json(200, [acme]);
      if (url.pathname === "/healthz") return json(200, { ok: true });
      if (url.pathname === "/api/auth/google-available") return json(200, { available: false });
      if (url.pathname in plan) return json(200, plan[url.pathname]);
      if (url.pathname === "/api/clients/c1/messages" && request.method() === "POST") {
        const { content } = request.postDataJSON() as { content: string };
        posted.push({ key: await request.headerValue("idempotency-key"), content });
        const message = {
          ...earlier,
          id: `m${stored.length + 1}`,
          content,
          senderRole: "owner",
          senderName: owner.fullName,
          createdAt: new Date().toISOString(),
        };
        stored.push(message);
        return json(201, message);
      }
      if (url.pathname === "/api/clients/c1/messages") return json(200, stored);
      if (request.method() === "OPTIONS") return json(204, null);
      return json(200, []);
    });
    await page.goto(`${app.origin}/?client=c1`);
    const stand = () =>
      page.evaluate(() => {
        const { loads, saves } = (window as unknown as { __desktop: Stand }).__desktop;
        return { loads, saves };
      });
    const answerLoad = (messages: PendingMessage[]) =>
      page.evaluate(
        (messages) => (window as unknown as { __desktop: Stand }).__desktop.answerLoad?.(messages),
        messages,
      );
    return { page, context, errors, posted, stand, answerLoad };
  }

  const unsentList = (page: Page) => page.getByRole("list", { name: "Messages not yet sent" });

  it("shows the saved messages as waiting, then sends the queued one once with its own key", async () => {
    const { page, context, errors, posted, stand, answerLoad } = await openApp();
    await page.getByRole("log").getByText("Can we talk Monday?").waitFor();
    await expect.poll(async () => (await stand()).loads).toEqual(["u1"]);

    // Restarted without a connection: what was saved comes back into the conversation.
    await context.setOffline(true);
    await answerLoad([stale, queued, notSent]);
    const unsent = unsentList(page);
    await unsent.getByText("Monday works, 10am?").waitFor();
    await unsent.getByText("Waiting for connection").waitFor();
    await unsent.getByText("Not sent: Client not found").waitFor();
    await unsent
      .getByText("Not sent: it waited over a day; check the conversation before you retry")
      .waitFor();
    expect(posted).toEqual([]);
    await keepScreenshot(page, "desktop-restored-queue");

    await context.setOffline(false);
    await expect
      .poll(() => posted, { timeout: 20_000 })
      .toEqual([{ key: queued.key, content: queued.content }]);
    await page.getByRole("log").getByText("Monday works, 10am?").waitFor();
    await expect.poll(() => unsent.getByText("Waiting for connection").count()).toBe(0);
    // The Not sent one stays for the owner to Retry; it is not sent by itself.
    await unsent.getByText("Also: the invoice is attached").waitFor();
    expect(posted).toHaveLength(1);
    // What is saved now: only the ones still unsent, with their keys and reasons.
    await expect
      .poll(async () => (await stand()).saves.at(-1))
      .toEqual({
        userId: "u1",
        messages: [
          {
            clientId: "c1",
            key: stale.key,
            content: stale.content,
            failed: true,
            reason: "it waited over a day; check the conversation before you retry",
            since: stale.since,
          },
          {
            clientId: "c1",
            key: notSent.key,
            content: notSent.content,
            afterId: "m1",
            failed: true,
            reason: "Client not found",
            since: notSent.since,
          },
        ],
      });
    await keepScreenshot(page, "desktop-restored-sent");
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it("saves a message queued while offline, so it survives a quit", async () => {
    const { page, context, errors, stand, answerLoad } = await openApp();
    await page.getByRole("log").getByText("Can we talk Monday?").waitFor();
    await expect.poll(async () => (await stand()).loads).toEqual(["u1"]);
    await answerLoad([]);
    await context.setOffline(true);
    const composer = page.getByRole("textbox", { name: "Message" });
    await composer.fill("Draft for the weekend");
    await composer.press("Enter");
    await unsentList(page).getByText("Waiting for connection").waitFor();
    const saved = async () => (await stand()).saves.at(-1)?.messages ?? [];
    await expect
      .poll(async () => (await saved()).map(({ content, failed }) => ({ content, failed })))
      .toEqual([{ content: "Draft for the weekend", failed: undefined }]);
    const [entry] = await saved();
    expect(entry!.key).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(entry!.clientId).toBe("c1");

    // No "Leave site?" prompt in the app: it would silently keep it from quitting.
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.type());
      void dialog.dismiss();
    });
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => page.isClosed()).toBe(true);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});
