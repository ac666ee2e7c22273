/**
 * One shared fake of the electron module for main-process tests (Mattermost's approach):
 * just enough behaviour to drive the modules, and a record of what they did. The Electron
 * binary is not needed (nor present on the project's machines).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DesktopElectron } from "../main/index";
import { createFakeNet } from "./fake-net";

/** Fakes take any listener: each test calls it the way Electron would. */
// biome-ignore lint/suspicious/noExplicitAny: a fake stands in for many Electron signatures.
type Listener = (...args: any[]) => any;

export class FakeEmitter {
  private readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener): this {
    const wrapper: Listener = (...args) => {
      this.off(event, wrapper);
      return listener(...args);
    };
    return this.on(event, wrapper);
  }
  off(event: string, listener: Listener): this {
    this.listeners.set(
      event,
      (this.listeners.get(event) ?? []).filter((candidate) => candidate !== listener),
    );
    return this;
  }
  removeListener(event: string, listener: Listener): this {
    return this.off(event, listener);
  }
  emit(event: string, ...args: unknown[]): boolean {
    const listeners = this.listeners.get(event) ?? [];
    for (const listener of listeners) listener(...args);
    return listeners.length > 0;
  }
  listenerCount(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
}

/** An event object as Electron passes to navigation listeners. */
export function fakeEvent(url = "") {
  let prevented = false;
  return {
    url,
    preventDefault() {
      prevented = true;
    },
    get defaultPrevented() {
      return prevented;
    },
  };
}

export class FakeWebContents extends FakeEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  readonly sent: unknown[][] = [];
  readonly downloads: string[] = [];
  url = "";
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
  send(channel: string, ...args: unknown[]) {
    this.sent.push([channel, ...args]);
  }
  downloadURL(url: string) {
    this.downloads.push(url);
  }
  getURL() {
    return this.url;
  }
  /** Emits a navigation event; returns whether a listener prevented it. */
  navigate(event: "will-navigate" | "will-frame-navigate" | "will-redirect", url: string): boolean {
    const navigation = fakeEvent(url);
    this.emit(event, navigation);
    return navigation.defaultPrevented;
  }
}

export class FakeCookies extends FakeEmitter {
  readonly jar = new Map<string, { name: string; value: string; domain: string; path: string }>();
  readonly setCalls: Record<string, unknown>[] = [];
  async set(details: { url: string; name: string; value: string; path?: string }) {
    this.setCalls.push(details);
    const cookie = {
      name: details.name,
      value: details.value,
      domain: new URL(details.url).hostname,
      path: details.path ?? "/",
    };
    this.jar.set(details.name, cookie);
    this.emit("changed", {}, cookie, "explicit", false);
  }
  async get(filter: { url?: string; name?: string }) {
    return [...this.jar.values()].filter((cookie) => !filter.name || cookie.name === filter.name);
  }
  /** What the server's Set-Cookie does to the jar. */
  serverSets(name: string, value: string, domain: string, expirationDate?: number) {
    const old = this.jar.get(name);
    if (old) this.emit("changed", {}, old, "overwrite", true);
    const cookie = { name, value, domain, path: "/", expirationDate };
    this.jar.set(name, cookie);
    this.emit("changed", {}, cookie, "explicit", false);
  }
  serverClears(name: string) {
    const old = this.jar.get(name);
    if (!old) return;
    this.jar.delete(name);
    this.emit("changed", {}, old, "expired-overwrite", true);
  }
}

export type FetchImpl = (
  input: string,
  init: RequestInit & { bypassCustomProtocolHandlers?: boolean },
) => Promise<Response>;

export class FakeSession {
  readonly protocolHandlers = new Map<string, (request: Request) => Promise<Response> | Response>();
  readonly protocol = {
    handle: (scheme: string, handler: (request: Request) => Promise<Response> | Response) => {
      this.protocolHandlers.set(scheme, handler);
    },
  };
  beforeSendHeaders: { filter: { urls: string[] }; listener: Listener } | null = null;
  readonly webRequest = {
    onBeforeSendHeaders: (filter: { urls: string[] }, listener: Listener) => {
      this.beforeSendHeaders = { filter, listener };
    },
  };
  readonly cookies = new FakeCookies();
  readonly fetchCalls: {
    input: string;
    init: RequestInit & { bypassCustomProtocolHandlers?: boolean };
  }[] = [];
  fetchImpl: FetchImpl = async () => new Response("{}", { status: 200 });
  async fetch(input: string, init: RequestInit & { bypassCustomProtocolHandlers?: boolean }) {
    this.fetchCalls.push({ input, init });
    return this.fetchImpl(input, init);
  }
  permissionRequestHandler: Listener | null = null;
  permissionCheckHandler: Listener | null = null;
  devicePermissionHandler: Listener | null = null;
  setPermissionRequestHandler(handler: Listener) {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: Listener) {
    this.permissionCheckHandler = handler;
  }
  setDevicePermissionHandler(handler: Listener) {
    this.devicePermissionHandler = handler;
  }
}

/** Reversible and not plain text: enough to tell ciphertext from the secret in a file. */
export class FakeSafeStorage {
  available = true;
  backend: string = "gnome_libsecret";
  encryptString(plainText: string): Buffer {
    if (!this.available) throw new Error("Encryption is not available");
    const bytes = Buffer.from(plainText, "utf8").map((byte, index) => byte ^ (0x5a + (index % 7)));
    return Buffer.concat([Buffer.from("v10"), bytes]);
  }
  decryptString(encrypted: Buffer): string {
    if (!this.available) throw new Error("Encryption is not available");
    if (encrypted.subarray(0, 3).toString() !== "v10")
      throw new Error("Error while decrypting the ciphertext");
    const bytes = encrypted.subarray(3).map((byte, index) => byte ^ (0x5a + (index % 7)));
    return Buffer.from(bytes).toString("utf8");
  }
  isEncryptionAvailable() {
    return this.available;
  }
  getSelectedStorageBackend() {
    return this.backend;
  }
}

export function createFakeElectron(options: { userData?: string; isPackaged?: boolean } = {}) {
  const userData = options.userData ?? mkdtempSync(path.join(tmpdir(), "clientdesk-test-"));
  const windows: FakeBrowserWindow[] = [];
  const sessions = new Map<string, FakeSession>();
  const notifications: FakeNotification[] = [];
  const trays: FakeTray[] = [];

  class FakeBrowserWindow extends FakeEmitter {
    readonly webContents = new FakeWebContents();
    loadedUrl: string | null = null;
    visible = false;
    minimized = false;
    maximized = false;
    focused = false;
    destroyed = false;
    readonly calls: string[] = [];
    constructor(
      readonly options: Record<string, unknown> & { webPreferences: Record<string, unknown> },
    ) {
      super();
      windows.push(this);
      app.emit("web-contents-created", {}, this.webContents);
    }
    async loadURL(url: string) {
      this.loadedUrl = url;
      this.webContents.url = url;
    }
    show() {
      this.calls.push("show");
      this.visible = true;
    }
    hide() {
      this.calls.push("hide");
      this.visible = false;
    }
    focus() {
      this.calls.push("focus");
      this.focused = true;
    }
    restore() {
      this.calls.push("restore");
      this.minimized = false;
    }
    maximize() {
      this.maximized = true;
    }
    isMinimized() {
      return this.minimized;
    }
    isMaximized() {
      return this.maximized;
    }
    isDestroyed() {
      return this.destroyed;
    }
    getNormalBounds() {
      return { x: 10, y: 20, width: 1000, height: 700 };
    }
  }

  class FakeNotification extends FakeEmitter {
    static supported = true;
    static isSupported() {
      return FakeNotification.supported;
    }
    shown = false;
    constructor(readonly options: { title: string; body: string }) {
      super();
      notifications.push(this);
    }
    show() {
      this.shown = true;
    }
  }

  class FakeTray extends FakeEmitter {
    tooltip = "";
    menu: unknown = null;
    destroyed = false;
    constructor(readonly image: unknown) {
      super();
      trays.push(this);
    }
    setToolTip(text: string) {
      this.tooltip = text;
    }
    setContextMenu(menu: unknown) {
      this.menu = menu;
    }
    destroy() {
      this.destroyed = true;
    }
  }

  class FakeApp extends FakeEmitter {
    isPackaged = options.isPackaged ?? false;
    sandboxEnabled = false;
    hasLock = true;
    quitCalled = false;
    exitCode: number | null = null;
    badgeCount = 0;
    appUserModelId: string | null = null;
    enableSandbox() {
      this.sandboxEnabled = true;
    }
    requestSingleInstanceLock() {
      return this.hasLock;
    }
    quit() {
      this.quitCalled = true;
    }
    exit(code = 0) {
      this.exitCode = code;
    }
    whenReady() {
      return Promise.resolve();
    }
    getPath(_name: "userData") {
      return userData;
    }
    setAppUserModelId(id: string) {
      this.appUserModelId = id;
    }
    setBadgeCount(count = 0) {
      this.badgeCount = count;
      return true;
    }
    // What electron-updater's app adapter reads.
    version = "1.0.0";
    relaunchCalled = false;
    getVersion() {
      return this.version;
    }
    getName() {
      return "ClientDesk";
    }
    getAppPath() {
      return userData;
    }
    relaunch() {
      this.relaunchCalled = true;
    }
  }
  const app = new FakeApp();

  const ipcHandlers = new Map<string, Listener>();
  /** The web contents every fake invoke comes from (event.sender): what main sends back to it. */
  const ipcSender = new FakeWebContents();
  const ipcMain = {
    handle(channel: string, listener: Listener) {
      if (ipcHandlers.has(channel))
        throw new Error(`Attempted to register a second handler for '${channel}'`);
      ipcHandlers.set(channel, listener);
    },
    /** Calls a handler as ipcRenderer.invoke would, from a frame at `frameUrl`. */
    async invoke(channel: string, frameUrl: string, ...args: unknown[]) {
      const handler = ipcHandlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      return handler({ senderFrame: { url: frameUrl, parent: null }, sender: ipcSender }, ...args);
    },
    handlers: ipcHandlers,
    sender: ipcSender,
  };

  const opened: string[] = [];
  const privilegedSchemes: unknown[] = [];
  const errorBoxes: [string, string][] = [];
  const updaterCalls: string[] = [];
  /** Every Menu.setApplicationMenu call, newest last. */
  const applicationMenus: unknown[] = [];
  /** A test's stand-in for the system browser: openExternal hands it each URL (not awaited). */
  let systemBrowser: ((url: string) => Promise<unknown>) | null = null;
  const browserVisits: Promise<unknown>[] = [];

  const fake = {
    app,
    autoUpdater: Object.assign(new FakeEmitter(), {
      setFeedURL(options: { url: string }) {
        updaterCalls.push(`feed ${options.url}`);
      },
      checkForUpdates() {
        updaterCalls.push("check");
      },
    }),
    BrowserWindow: FakeBrowserWindow,
    dialog: {
      showErrorBox(title: string, content: string) {
        errorBoxes.push([title, content]);
      },
    },
    ipcMain,
    Menu: {
      buildFromTemplate: (template: unknown[]) => ({ template }),
      setApplicationMenu(menu: unknown) {
        applicationMenus.push(menu);
      },
    },
    nativeImage: { createFromPath: (file: string) => ({ resize: () => ({ file }) }) },
    Notification: FakeNotification,
    protocol: {
      registerSchemesAsPrivileged(schemes: unknown[]) {
        privilegedSchemes.push(...schemes);
      },
    },
    safeStorage: new FakeSafeStorage(),
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    session: {
      fromPartition(partition: string) {
        let session = sessions.get(partition);
        if (!session) {
          session = new FakeSession();
          sessions.set(partition, session);
        }
        return session;
      },
    },
    shell: {
      async openExternal(url: string) {
        opened.push(url);
        if (systemBrowser) browserVisits.push(systemBrowser(url));
      },
    },
    Tray: FakeTray,
    /** electron-updater downloads with net.request: real HTTP here (fake-net.ts). */
    net: createFakeNet(),
  };

  return {
    ...fake,
    /** The fake typed as what the app expects of the electron module. */
    electron: fake as unknown as DesktopElectron,
    userData,
    windows,
    sessions,
    notifications,
    trays,
    opened,
    privilegedSchemes,
    errorBoxes,
    updaterCalls,
    applicationMenus,
    browserVisits,
    setSystemBrowser(browser: ((url: string) => Promise<unknown>) | null) {
      systemBrowser = browser;
    },
  };
}

export type FakeElectron = ReturnType<typeof createFakeElectron>;
