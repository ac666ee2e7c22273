/**
 * The desktop renderer in headless Chromium: the built out/renderer served by the app://
 * handler's own code (on a loopback port, since Chromium here has no app:// scheme), a stub
 * of the preload's window.clientdesk, and the server answered by Playwright routes.
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
  const app = useBuiltRenderer("renderer-test");

  async function openApp(signedIn: boolean): Promise<{ page: Page; errors: string[] }> {
    const page = await app.browser.newPage({ viewport: { width: 1200, height: 800 } });
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
      // Streamed uploads: the test plays main (progress, outcome); see the upload test below.
      const uploads: {
        name: string;
        size: number;
        request: unknown;
        settle: (r: unknown) => void;
      }[] = [];
      const progressListeners: ((progress: unknown) => void)[] = [];
      const cancels: string[] = [];
      Object.assign(w.__desktop as object, { uploads, progressListeners, cancels });
      Object.assign(w.clientdesk as object, {
        uploadFile: (file: File, request: { uploadId: string }) =>
          new Promise((settle) =>
            uploads.push({ name: file.name, size: file.size, request, settle }),
          ),
        onUploadProgress: (callback: (progress: unknown) => void) => {
          progressListeners.push(callback);
          return () => progressListeners.splice(progressListeners.indexOf(callback), 1);
        },
        cancelUpload: async (uploadId: string) => {
          cancels.push(uploadId);
          const upload = uploads.find(
            (candidate) => (candidate.request as { uploadId: string }).uploadId === uploadId,
          );
          upload?.settle({ outcome: "cancelled" });
        },
      });
    }, SERVER);
    const plan = planAnswers("pro", 2);
    await answerServer(page, app.origin, async (url, json) => {
      if (url.pathname === "/api/user")
        return signedIn ? json(200, owner) : json(401, { message: "Not signed in" });
      if (url.pathname === "/api/clients") {
        return json(200, [client("c1", "Acme Co", 2), client("c2", "Beta Studio", 0)]);
      }
      if (url.pathname === "/api/auth/google-available") return json(200, { available: false });
      if (url.pathname in plan) return json(200, plan[url.pathname]);
      if (url.pathname.startsWith("/api/clients/") && url.pathname.endsWith("/messages"))
        return json(200, []);
      return json(404, { message: "Not found" });
    });
    await page.goto(`${app.origin}/`);
    return { page, errors };
  }

  it("mounts the owner app with the desktop platform: signed out, the sign-in page", async () => {
    const { page, errors } = await openApp(false);
    await page.waitForURL(/\/auth$/);
    await page.getByRole("tab", { name: "Sign In" }).waitFor();
    await keepScreenshot(page, "desktop-renderer-auth");
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
    await keepScreenshot(page, "desktop-renderer-dashboard");

    // Main sends open-conversation after a notification click.
    await page.evaluate(() => {
      const desktop = (window as unknown as { __desktop: { listeners: ((id: string) => void)[] } })
        .__desktop;
      for (const listener of desktop.listeners) listener("c2");
    });
    await page.waitForURL(/\?client=c2$/);
    await page.getByRole("heading", { name: "Beta Studio" }).waitFor();
    await keepScreenshot(page, "desktop-renderer-conversation");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("uploads through main: the dialog shows its progress, and Cancel stops it", async () => {
    const { page, errors } = await openApp(true);
    type Upload = {
      name: string;
      size: number;
      request: { uploadId: string } & Record<string, unknown>;
    };
    const uploads = () =>
      page.evaluate(() =>
        (window as unknown as { __desktop: { uploads: Upload[] } }).__desktop.uploads.map(
          ({ name, size, request }) => ({ name, size, request }),
        ),
      );
    const progress = (uploadId: string, sent: number, total: number) =>
      page.evaluate(
        ({ uploadId, sent, total }) => {
          const desktop = (
            window as unknown as { __desktop: { progressListeners: ((p: unknown) => void)[] } }
          ).__desktop;
          for (const listener of desktop.progressListeners) listener({ uploadId, sent, total });
        },
        { uploadId, sent, total },
      );
    const settle = (index: number, result: unknown) =>
      page.evaluate(
        ({ index, result }) =>
          (
            window as unknown as { __desktop: { uploads: { settle: (r: unknown) => void }[] } }
          ).__desktop.uploads[index]!.settle(result),
        { index, result },
      );
    const MB = 1024 * 1024;
    const chooseFile = (name: string) =>
      page.locator('[role="dialog"] input[type="file"]').setInputFiles({
        name,
        mimeType: "application/pdf",
        buffer: Buffer.alloc(4 * MB, 1),
      });

    await page.getByText("Acme Co").first().click();
    await page.getByRole("button", { name: "Upload File" }).click();
    const dialog = page.getByRole("dialog", { name: "Upload File" });
    await chooseFile("Brand guide.pdf");
    await dialog.getByRole("checkbox", { name: /Requires feedback/ }).check();
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();

    await expect.poll(async () => (await uploads()).length).toBe(1);
    const [first] = await uploads();
    expect(first).toMatchObject({
      name: "Brand guide.pdf",
      size: 4 * MB,
      request: { target: { kind: "conversation", clientId: "c1", requiresFeedback: true } },
    });
    expect(first!.request.idempotencyKey).toEqual(expect.any(String));

    const bar = dialog.getByRole("progressbar");
    await expect.poll(() => bar.getAttribute("aria-valuenow")).toBe("0");
    await progress(first!.request.uploadId, 2 * MB, 4 * MB);
    await expect.poll(() => bar.getAttribute("aria-valuenow")).toBe("50");
    await dialog.getByText("50%").waitFor();
    await dialog.getByText("2 MB of 4 MB").waitFor();
    expect(await dialog.getByRole("button", { name: "Uploading..." }).isDisabled()).toBe(true);
    await keepScreenshot(page, "desktop-upload-progress");

    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect
      .poll(() =>
        page.evaluate(
          () => (window as unknown as { __desktop: { cancels: string[] } }).__desktop.cancels,
        ),
      )
      .toEqual([first!.request.uploadId]);
    await page.getByText("Upload cancelled").first().waitFor();
    await dialog.getByText("Drag a file here or click to browse").waitFor();
    expect(await bar.count()).toBe(0);
    await keepScreenshot(page, "desktop-upload-cancelled");

    // Main's refusal (its checks run before any byte is sent) is shown as the server's would be.
    await chooseFile("Too large.pdf");
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await expect.poll(async () => (await uploads()).length).toBe(2);
    await settle(1, {
      outcome: "refused",
      status: 413,
      message: "File size must be less than 10 MB",
    });
    await page.getByText("File size must be less than 10 MB").first().waitFor();

    // No answer from the server: retried (after a second) with the same Idempotency-Key, then
    // all bytes sent (no Cancel any more), then the server's answer.
    await chooseFile("Final.pdf");
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await expect.poll(async () => (await uploads()).length).toBe(3);
    await settle(2, { outcome: "unreachable", message: "Can't reach the ClientDesk server." });
    await expect.poll(async () => (await uploads()).length, { timeout: 5_000 }).toBe(4);
    const [, , lost, third] = await uploads();
    expect(third!.request.idempotencyKey).toBe(lost!.request.idempotencyKey);
    expect(third!.request.uploadId).not.toBe(lost!.request.uploadId);
    await progress(third!.request.uploadId, 4 * MB, 4 * MB);
    await dialog.getByText("Finishing...").waitFor();
    expect(await dialog.getByRole("button", { name: "Cancel" }).isDisabled()).toBe(true);
    await settle(3, { outcome: "uploaded", status: 201, body: { id: "m9" } });
    await page.getByText("File uploaded successfully", { exact: true }).waitFor();
    await dialog.waitFor({ state: "detached" });
    expect(errors).toEqual([]);
    await page.close();
  });
});
