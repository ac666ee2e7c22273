import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { IpcChannels } from "../common/ipc-channels";
import { createFakeElectron } from "../test/fake-electron";

// index.ts imports the real module only to start itself inside Electron; never here.
vi.mock("electron", () => ({}));

const { SESSION_PARTITION, startDesktopApp } = await import("./index");

function start(
  options: { env?: Record<string, string>; hasLock?: boolean; isPackaged?: boolean } = {},
) {
  const fake = createFakeElectron({ isPackaged: options.isPackaged });
  fake.app.hasLock = options.hasLock ?? true;
  const logs: string[] = [];
  const running = startDesktopApp(fake.electron, {
    env: options.env ?? {},
    platform: "linux",
    mainDir: "/opt/clientdesk/out/main",
    resourcesPath: "/opt/clientdesk/resources",
    log: (message) => logs.push(message),
  });
  return { fake, running, logs };
}

describe("startDesktopApp", () => {
  it("sandboxes every renderer and registers app:// before ready", async () => {
    const { fake, running } = start();
    expect(fake.app.sandboxEnabled).toBe(true);
    expect(fake.privilegedSchemes).toHaveLength(1);
    await running.ready;
  });

  it("quits a second instance, and the first one comes forward", async () => {
    const first = start();
    const window = await first.running.ready;
    expect(window).not.toBeNull();
    const fakeWindow = first.fake.windows[0]!;
    fakeWindow.minimized = true;
    fakeWindow.visible = false;
    fakeWindow.focused = false;

    const second = start({ hasLock: false });
    expect(await second.running.ready).toBeNull();
    expect(second.fake.app.quitCalled).toBe(true);
    expect(second.fake.windows).toHaveLength(0);

    // Electron tells the first instance about the second launch.
    first.fake.app.emit("second-instance", {}, ["clientdesk"], "/");
    expect(fakeWindow.minimized).toBe(false);
    expect(fakeWindow.visible).toBe(true);
    expect(fakeWindow.focused).toBe(true);
  });

  it("loads app://clientdesk/ in a window of the in-memory app session", async () => {
    const { fake, running } = start();
    await running.ready;
    const window = fake.windows[0]!;
    expect(window.loadedUrl).toBe("app://clientdesk/");
    expect(window.options.webPreferences.partition).toBe(SESSION_PARTITION);
    expect(SESSION_PARTITION.startsWith("persist:")).toBe(false);
    const session = fake.sessions.get(SESSION_PARTITION)!;
    expect([...session.protocolHandlers.keys()].sort()).toEqual(["app", "http", "https"]);
    expect(session.permissionRequestHandler).not.toBeNull();
    expect(session.beforeSendHeaders?.filter.urls).toEqual(["ws://localhost:3000/ws*"]);
  });

  it("ignores the dev server URL once packaged", async () => {
    const dev = start({ env: { ELECTRON_RENDERER_URL: "http://localhost:5173" } });
    await dev.running.ready;
    expect(dev.fake.windows[0]!.loadedUrl).toBe("http://localhost:5173");

    const packaged = start({
      env: { ELECTRON_RENDERER_URL: "http://localhost:5173" },
      isPackaged: true,
    });
    await packaged.running.ready;
    expect(packaged.fake.windows[0]!.loadedUrl).toBe("app://clientdesk/");

    const remote = start({ env: { ELECTRON_RENDERER_URL: "https://evil.example" } });
    await remote.running.ready;
    expect(remote.fake.windows[0]!.loadedUrl).toBe("app://clientdesk/");
  });

  it("wires a notification click to the window and the renderer", async () => {
    const { fake, running } = start();
    await running.ready;
    await fake.ipcMain.invoke(IpcChannels.showNotification, "app://clientdesk/", {
      title: "Acme Co",
      body: "New message",
      clientId: "client-7",
    });
    const window = fake.windows[0]!;
    window.visible = false;
    fake.notifications[0]!.emit("click");
    expect(window.visible).toBe(true);
    expect(window.webContents.sent).toEqual([[IpcChannels.openConversation, "client-7"]]);
  });

  it("puts the unread count on the tray", async () => {
    const { fake, running } = start();
    await running.ready;
    await fake.ipcMain.invoke(IpcChannels.setUnreadCount, "app://clientdesk/", 5);
    expect(fake.trays[0]!.tooltip).toBe("ClientDesk: 5 unread messages");
  });

  it("restores the stored session into the cookie jar before loading", async () => {
    const first = start();
    await first.running.ready;
    const session = first.fake.sessions.get(SESSION_PARTITION)!;
    session.cookies.serverSets("sid", "the-session-token", "localhost", Date.now() / 1000 + 3600);
    const file = path.join(first.fake.userData, "session.bin");
    await vi.waitFor(() => expect(existsSync(file)).toBe(true));
    expect(readFileSync(file).includes(Buffer.from("the-session-token"))).toBe(false);

    // A new start on the same profile (user data directory).
    const fake2 = createFakeElectron({ userData: first.fake.userData });
    const running2 = startDesktopApp(fake2.electron, {
      env: {},
      platform: "linux",
      mainDir: "/opt/clientdesk/out/main",
      resourcesPath: "/opt",
      log: () => {},
    });
    await running2.ready;
    const jar = fake2.sessions.get(SESSION_PARTITION)!.cookies;
    expect(jar.setCalls).toEqual([
      expect.objectContaining({
        url: "http://localhost:3000",
        name: "sid",
        value: "the-session-token",
        httpOnly: true,
      }),
    ]);
  });

  it("keeps running in the tray when the window closes, and quits where there is no tray", async () => {
    const withTray = start();
    await withTray.running.ready;
    withTray.fake.app.emit("window-all-closed");
    expect(withTray.fake.app.quitCalled).toBe(false);

    const noTray = createFakeElectron();
    noTray.Tray = class {
      constructor() {
        throw new Error("no system tray");
      }
    } as unknown as typeof noTray.Tray;
    const logs: string[] = [];
    await startDesktopApp({ ...noTray.electron, Tray: noTray.Tray } as typeof noTray.electron, {
      env: {},
      platform: "linux",
      mainDir: "/opt/clientdesk/out/main",
      resourcesPath: "/opt",
      log: (message) => logs.push(message),
    }).ready;
    expect(logs.join("\n")).toMatch(/no tray/);
    noTray.app.emit("window-all-closed");
    expect(noTray.app.quitCalled).toBe(true);
  });

  it("refuses a wrong server address with one clear line", async () => {
    const { fake, running } = start({ env: { CLIENTDESK_SERVER_URL: "http://desk.example.com" } });
    expect(await running.ready).toBeNull();
    expect(fake.errorBoxes[0]![1]).toBe(
      "CLIENTDESK_SERVER_URL must use https:// unless the server runs on this machine",
    );
    expect(fake.app.exitCode).toBe(1);
  });

  it("makes no update checks when unpackaged without an update address", async () => {
    const { fake, running, logs } = start();
    await running.ready;
    expect(fake.net.requests).toEqual([]);
    expect(logs).toContain("updates off: not packaged and no CLIENTDESK_UPDATE_URL");
  });

  it("makes no update checks where the installation cannot update itself", async () => {
    // Linux, neither an AppImage nor a .deb (no resources/package-type): nothing to update.
    const { fake, running, logs } = start({
      env: { CLIENTDESK_UPDATE_URL: "https://updates.example.com" },
    });
    await running.ready;
    expect(fake.net.requests).toEqual([]);
    expect(logs).toContain("updates off: this kind of installation does not update itself");
  });
});
