/**
 * The built desktop app in Electron, driven by Playwright's _electron: an owner signs in,
 * gets a client's message as a system notification and in the tray's count, opens it from
 * the notification, drops a file on the conversation (streamed from disk by main) and signs
 * out. Runs wherever an Electron binary exists (tests/support/electron.ts); the renderer alone
 * is tested in Chromium meanwhile (desktop/renderer/renderer.browser.test.ts).
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { _electron, type ElectronApplication, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient, type JoinedClient } from "../support/conversations";
import { buildDesktopApp } from "../support/desktop-build";
import {
  type Display,
  electronBinary,
  NO_ELECTRON_MESSAGE,
  startDisplay,
} from "../support/electron";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { startTestServer, type TestServer } from "../support/server";

const binary = electronBinary();
if (!binary) console.warn(`\n${NO_ELECTRON_MESSAGE}\n`);

/** What main showed, recorded by patching Electron's own classes inside the app. */
interface Shown {
  notifications: { title: string; body: string }[];
  tooltips: string[];
}

describe.skipIf(!binary)("the desktop app in Electron", () => {
  let server: TestServer;
  let owner: SignedInOwner;
  let client: JoinedClient;
  let display: Display;
  let app: ElectronApplication;
  let page: Page;
  let home: string;
  let appFolder: string;

  beforeAll(async () => {
    appFolder = await buildDesktopApp("electron-test");
    server = await startTestServer();
    owner = await signUpOwner(server, "Olivia Owner");
    client = await addJoinedClient(server, owner, { name: "Carla Client" });
    display = await startDisplay();
    home = mkdtempSync(path.join(os.tmpdir(), "clientdesk-electron-"));
    app = await _electron.launch({
      executablePath: binary ?? undefined,
      args: [appFolder, "--no-sandbox"],
      env: {
        ...(process.env as Record<string, string>),
        ...display.env,
        CLIENTDESK_SERVER_URL: server.url,
        // The app's user data folder (session.bin, window state) goes here on Linux.
        XDG_CONFIG_HOME: home,
      },
    });
    // Record what main shows: notifications, and the tray's tooltip (its unread count).
    await app.evaluate(({ Notification, Tray }) => {
      const shown = { notifications: [], tooltips: [] } as Shown & { last?: unknown };
      (globalThis as { shown?: unknown }).shown = shown;
      // Under Xvfb no notification daemon may run; the app's own check is not what is tested.
      Notification.isSupported = () => true;
      const show = Notification.prototype.show;
      Notification.prototype.show = function (this: Electron.Notification) {
        shown.notifications.push({ title: this.title, body: this.body });
        shown.last = this;
        return show.call(this);
      };
      const setToolTip = Tray.prototype.setToolTip;
      Tray.prototype.setToolTip = function (this: Electron.Tray, toolTip: string) {
        shown.tooltips.push(toolTip);
        return setToolTip.call(this, toolTip);
      };
    });
    page = await app.firstWindow();
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    display?.stop();
    await server?.close();
    if (home) rmSync(home, { recursive: true, force: true });
    if (appFolder) rmSync(appFolder, { recursive: true, force: true });
  });

  const shown = () => app.evaluate(() => (globalThis as unknown as { shown: Shown }).shown);

  it("signs in with the owner's email and password", async () => {
    await page.getByLabel("Email", { exact: true }).fill(owner.email);
    await page.getByLabel("Password", { exact: true }).fill(owner.password);
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await page.getByRole("navigation", { name: "Clients" }).getByText("Carla Client").waitFor();
  });

  it("notifies a client's message while in the background, and counts it in the tray", async () => {
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.minimize());
    const sent = await client.agent.post(`/api/clients/${client.id}/messages`, {
      content: "Could you send the final logo?",
    });
    expect(sent.status).toBe(201);
    await expect
      .poll(async () => (await shown()).notifications)
      .toContainEqual({ title: "Carla Client", body: "New message" });
    await expect
      .poll(async () => (await shown()).tooltips.at(-1))
      .toBe("ClientDesk: 1 unread message");
  });

  it("opens that conversation from the notification", async () => {
    await app.evaluate(() => {
      const last = (globalThis as unknown as { shown: { last: Electron.Notification } }).shown.last;
      last.emit("click");
    });
    await expect
      .poll(() =>
        app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.isMinimized()),
      )
      .toBe(false);
    await expect.poll(() => new URL(page.url()).searchParams.get("client")).toBe(client.id);
    await page.getByRole("log").getByText("Could you send the final logo?").waitFor();
    // Read in the open conversation: the tray's count goes back to none.
    await expect.poll(async () => (await shown()).tooltips.at(-1)).toBe("ClientDesk");
  });

  it("uploads a file dropped on the conversation", async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "clientdesk-drop-"));
    const file = path.join(folder, "brief.txt");
    writeFileSync(file, "The brief, version 2.\n".repeat(2000));
    // A file from disk, as the OS hands it over: Playwright sets it on a file input, and the
    // page drops that File (it keeps its path, which main streams from).
    await page.evaluate(() => {
      const input = document.createElement("input");
      input.type = "file";
      input.id = "electron-test-drop";
      input.hidden = true;
      document.body.append(input);
    });
    await page.setInputFiles("#electron-test-drop", file);
    const dataTransfer = await page.evaluateHandle(() => {
      const input = document.getElementById("electron-test-drop") as HTMLInputElement;
      const transfer = new DataTransfer();
      const dropped = input.files?.[0];
      if (dropped) transfer.items.add(dropped);
      return transfer;
    });
    const conversation = page.getByRole("region", { name: "Conversation with Carla Client" });
    await conversation.dispatchEvent("dragenter", { dataTransfer });
    await conversation.dispatchEvent("dragover", { dataTransfer });
    await conversation.dispatchEvent("drop", { dataTransfer });
    const dialog = page.getByRole("dialog", { name: "Upload File" });
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("log").getByText("brief.txt").waitFor();
    const files = await owner.agent.get(`/api/clients/${client.id}/messages`);
    expect(JSON.stringify(files.body)).toContain("brief.txt");
    rmSync(folder, { recursive: true, force: true });
  });

  it("signs out, and forgets the session", async () => {
    await page.getByRole("button", { name: "Log out" }).click();
    await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
    const userData = path.join(home, "ClientDesk");
    expect(readdirSync(userData)).not.toContain("session.bin");
  });
});
