import { describe, expect, it, vi } from "vitest";
import { isAppUrl } from "../common/app-origin";
import { IpcChannels } from "../common/ipc-channels";
import { createFakeElectron } from "../test/fake-electron";
import { registerIpcHandlers } from "./ipc";

function setup(devServerOrigin: string | null = null) {
  const fake = createFakeElectron();
  const notifier = { show: vi.fn() };
  const setUnreadCount = vi.fn();
  registerIpcHandlers({
    ipcMain: fake.electron.ipcMain,
    isAppUrl: (url) => isAppUrl(url, devServerOrigin),
    notifier,
    setUnreadCount,
  });
  return { ipc: fake.ipcMain, notifier, setUnreadCount };
}

const APP_PAGE = "app://clientdesk/?client=abc";

describe("IPC handlers", () => {
  it("registers every channel in one place", () => {
    const { ipc } = setup();
    expect([...ipc.handlers.keys()].sort()).toEqual(
      [IpcChannels.setUnreadCount, IpcChannels.showNotification].sort(),
    );
  });

  it("accept well-formed calls from the app's page", async () => {
    const { ipc, notifier, setUnreadCount } = setup();
    await ipc.invoke(IpcChannels.showNotification, APP_PAGE, {
      title: "Acme Co",
      body: "New message",
      clientId: "c-123_x",
    });
    expect(notifier.show).toHaveBeenCalledWith({
      title: "Acme Co",
      body: "New message",
      clientId: "c-123_x",
    });
    await ipc.invoke(IpcChannels.setUnreadCount, APP_PAGE, 4);
    expect(setUnreadCount).toHaveBeenCalledWith(4);
  });

  it("refuse a foreign sender origin", async () => {
    const { ipc, notifier, setUnreadCount } = setup();
    const payload = { title: "Hi", body: "there" };
    for (const url of [
      "https://evil.example/",
      "http://localhost:3000/",
      "file:///tmp/x.html",
      "app://other/",
      "http://localhost:5173/",
      "",
    ]) {
      await expect(ipc.invoke(IpcChannels.showNotification, url, payload), url).rejects.toThrow(
        /IPC refused/,
      );
      await expect(ipc.invoke(IpcChannels.setUnreadCount, url, 1), url).rejects.toThrow(
        /IPC refused/,
      );
    }
    expect(notifier.show).not.toHaveBeenCalled();
    expect(setUnreadCount).not.toHaveBeenCalled();
  });

  it("refuse a sub-frame and a vanished frame", async () => {
    const { ipc, notifier } = setup();
    const handler = ipc.handlers.get(IpcChannels.showNotification)!;
    const payload = { title: "Hi", body: "there" };
    expect(() => handler({ senderFrame: { url: APP_PAGE, parent: {} } }, payload)).toThrow(
      /main frame/,
    );
    expect(() => handler({ senderFrame: null }, payload)).toThrow(/gone/);
    expect(notifier.show).not.toHaveBeenCalled();
  });

  it("accept the dev server only when it is configured", async () => {
    const { ipc, setUnreadCount } = setup("http://localhost:5173");
    await ipc.invoke(IpcChannels.setUnreadCount, "http://localhost:5173/", 2);
    expect(setUnreadCount).toHaveBeenCalledWith(2);
  });

  it("refuse bad arguments", async () => {
    const { ipc, notifier, setUnreadCount } = setup();
    const badNotifications: unknown[] = [
      undefined,
      null,
      "hello",
      { title: "", body: "x" },
      { title: "x" },
      { title: "x", body: 5 },
      { title: "x".repeat(201), body: "" },
      { title: "x", body: "y", clientId: "../../etc" },
      { title: "x", body: "y", clientId: "" },
      { title: "x", body: "y", html: "<img src=x onerror=alert(1)>" },
      { title: "x", body: "y", onClick: "require('child_process')" },
    ];
    for (const payload of badNotifications) {
      await expect(ipc.invoke(IpcChannels.showNotification, APP_PAGE, payload)).rejects.toThrow(
        /IPC refused/,
      );
    }
    await expect(
      ipc.invoke(IpcChannels.showNotification, APP_PAGE, { title: "a", body: "b" }, "extra"),
    ).rejects.toThrow(/one argument/);
    for (const count of [-1, 1.5, "3", Number.NaN, Number.POSITIVE_INFINITY, null, 10_000_000]) {
      await expect(ipc.invoke(IpcChannels.setUnreadCount, APP_PAGE, count)).rejects.toThrow(
        /IPC refused/,
      );
    }
    expect(notifier.show).not.toHaveBeenCalled();
    expect(setUnreadCount).not.toHaveBeenCalled();
  });
});
