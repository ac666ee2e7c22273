import { describe, expect, it } from "vitest";
import { isAppUrl } from "../common/app-origin";
import { SERVER_URL_SWITCH } from "../common/ipc-channels";
import { createFakeElectron } from "../test/fake-electron";
import { createOpenExternal } from "./open-external";
import { DEFAULT_BOUNDS } from "./window-state";
import { createMainWindow, focusWindow } from "./windows";

const SERVER = "http://localhost:3000";

function setup(options: { quitting?: boolean } = {}) {
  const fake = createFakeElectron();
  const saved: unknown[] = [];
  const window = createMainWindow({
    BrowserWindow: fake.electron.BrowserWindow,
    preloadPath: "/app/out/preload/index.cjs",
    partition: "clientdesk",
    serverUrl: SERVER,
    bounds: DEFAULT_BOUNDS,
    devTools: false,
    isAppUrl: (url) => isAppUrl(url),
    isServerDownload: (url) => url.startsWith(`${SERVER}/api/download/`),
    openExternal: createOpenExternal(fake.shell),
    isQuitting: () => options.quitting ?? false,
    saveBounds: (bounds) => saved.push(bounds),
  });
  const fakeWindow = fake.windows[0]!;
  return { fake, window, fakeWindow, contents: fakeWindow.webContents, saved };
}

describe("main window", () => {
  it("is created with the secure webPreferences", () => {
    const { fakeWindow } = setup();
    const prefs = fakeWindow.options.webPreferences;
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.navigateOnDragDrop).toBe(false);
    expect(prefs.devTools).toBe(false);
    expect(prefs.preload).toBe("/app/out/preload/index.cjs");
    expect(prefs.partition).toBe("clientdesk");
    // webSecurity is left at its default (on); nothing insecure is ever set.
    expect(prefs).not.toHaveProperty("webSecurity");
    expect(prefs).not.toHaveProperty("allowRunningInsecureContent");
    expect(prefs).not.toHaveProperty("experimentalFeatures");
    expect(prefs.additionalArguments).toEqual([`${SERVER_URL_SWITCH}${SERVER}`]);
    expect(fakeWindow.options.show).toBe(false);
  });

  it("allows navigation inside the app only", () => {
    const { contents } = setup();
    for (const event of ["will-navigate", "will-frame-navigate", "will-redirect"] as const) {
      expect(contents.navigate(event, "app://clientdesk/pricing"), event).toBe(false);
      expect(contents.navigate(event, "https://evil.example/"), event).toBe(true);
      expect(contents.navigate(event, "file:///etc/passwd"), event).toBe(true);
      expect(contents.navigate(event, `${SERVER}/auth/google`), event).toBe(true);
      expect(contents.navigate(event, "app://other-host/"), event).toBe(true);
      expect(contents.navigate(event, "javascript:alert(1)"), event).toBe(true);
      expect(contents.navigate(event, "http://localhost:5173/"), event).toBe(true);
    }
  });

  it("turns a navigation to a server download into a download, not a page", () => {
    const { contents } = setup();
    const url = `${SERVER}/api/download/abc.pdf`;
    expect(contents.navigate("will-navigate", url)).toBe(true);
    expect(contents.downloads).toEqual([url]);
  });

  it("denies window.open and sends only https links to the system browser", () => {
    const { contents, fake } = setup();
    const handler = contents.windowOpenHandler!;
    expect(handler({ url: "https://example.com/page" })).toEqual({ action: "deny" });
    expect(handler({ url: "http://example.com/" })).toEqual({ action: "deny" });
    expect(handler({ url: "file:///etc/passwd" })).toEqual({ action: "deny" });
    expect(handler({ url: "javascript:alert(1)" })).toEqual({ action: "deny" });
    expect(handler({ url: "smb://server/share" })).toEqual({ action: "deny" });
    expect(handler({ url: "https://user:pw@example.com/" })).toEqual({ action: "deny" });
    expect(handler({ url: "app://clientdesk/" })).toEqual({ action: "deny" });
    expect(fake.opened).toEqual(["https://example.com/page"]);
  });

  it("opens a server file link by downloading it", () => {
    const { contents, fake } = setup();
    const url = `${SERVER}/api/download/file.png`;
    expect(contents.windowOpenHandler!({ url })).toEqual({ action: "deny" });
    expect(contents.downloads).toEqual([url]);
    expect(fake.opened).toEqual([]);
  });

  it("refuses <webview>", () => {
    const { contents } = setup();
    const event = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    contents.emit("will-attach-webview", event);
    expect(event.prevented).toBe(true);
  });

  it("hides to the tray on close, saving its bounds, and closes when quitting", () => {
    const hidden = setup();
    const close = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    hidden.fakeWindow.emit("close", close);
    expect(close.prevented).toBe(true);
    expect(hidden.fakeWindow.calls).toContain("hide");
    expect(hidden.saved).toEqual([{ x: 10, y: 20, width: 1000, height: 700, maximized: false }]);

    const quitting = setup({ quitting: true });
    const close2 = {
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    quitting.fakeWindow.emit("close", close2);
    expect(close2.prevented).toBe(false);
  });

  it("shows itself when ready, and comes forward restored and focused", () => {
    const { fakeWindow, window } = setup();
    fakeWindow.emit("ready-to-show");
    expect(fakeWindow.visible).toBe(true);
    fakeWindow.minimized = true;
    fakeWindow.focused = false;
    focusWindow(window);
    expect(fakeWindow.minimized).toBe(false);
    expect(fakeWindow.focused).toBe(true);
  });
});
