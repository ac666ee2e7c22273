import { SERVER_URL_SWITCH } from "../common/ipc-channels";
import type { OpenExternal } from "./open-external";
import { MIN_HEIGHT, MIN_WIDTH, type Rectangle, type WindowBounds } from "./window-state";

/**
 * The main window: the secure webPreferences of checklist 1, navigation locked to the app
 * (checklist 7), window.open denied with https links sent to the system browser
 * (checklist 6), and the size and place it had last time.
 */
export interface NavigationEventLike {
  url: string;
  preventDefault(): void;
}

type NavigationEvent = "will-navigate" | "will-frame-navigate" | "will-redirect";

export interface WebContentsLike {
  on(event: NavigationEvent, listener: (event: NavigationEventLike) => void): unknown;
  on(event: "will-attach-webview", listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(
    handler: (details: { url: string }) => { action: "deny" } | { action: "allow" },
  ): void;
  send(channel: string, ...args: unknown[]): void;
  downloadURL(url: string): void;
}

export interface BrowserWindowLike {
  webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  show(): void;
  hide(): void;
  focus(): void;
  restore(): void;
  maximize(): void;
  isMinimized(): boolean;
  isMaximized(): boolean;
  isDestroyed(): boolean;
  getNormalBounds(): Rectangle;
  on(event: "ready-to-show", listener: () => void): unknown;
  on(event: "close", listener: (event: { preventDefault(): void }) => void): unknown;
  once(event: "ready-to-show", listener: () => void): unknown;
}

export type BrowserWindowConstructor = new (
  options: ReturnType<typeof mainWindowOptions>,
) => BrowserWindowLike;

export interface MainWindowSettings {
  preloadPath: string;
  /** The app's own session partition (in memory: no "persist:" prefix). */
  partition: string;
  serverUrl: string;
  bounds: WindowBounds;
  iconPath?: string;
  /** Developer tools only when not packaged. */
  devTools: boolean;
}

/** The window's options; every security-relevant webPreference is spelled out. */
export function mainWindowOptions(settings: MainWindowSettings) {
  return {
    width: settings.bounds.width,
    height: settings.bounds.height,
    ...(settings.bounds.x !== undefined && settings.bounds.y !== undefined
      ? { x: settings.bounds.x, y: settings.bounds.y }
      : {}),
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    title: "ClientDesk",
    show: false,
    backgroundColor: "#f4f6f9",
    ...(settings.iconPath ? { icon: settings.iconPath } : {}),
    webPreferences: {
      preload: settings.preloadPath,
      partition: settings.partition,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      sandbox: true,
      webviewTag: false,
      // Dropping a file outside a drop zone must not replace the page with it.
      navigateOnDragDrop: false,
      spellcheck: true,
      devTools: settings.devTools,
      // webSecurity and allowRunningInsecureContent keep their safe defaults.
      additionalArguments: [`${SERVER_URL_SWITCH}${settings.serverUrl}`],
    },
  };
}

export interface NavigationPolicy {
  isAppUrl: (url: string) => boolean;
  /** A file download from the server (e.g. /api/download/...): saved, never shown in the window. */
  isServerDownload: (url: string) => boolean;
  openExternal: OpenExternal;
}

/** Blocks every navigation, frame navigation and redirect that leaves the app. */
export function guardNavigation(contents: WebContentsLike, policy: NavigationPolicy): void {
  contents.on("will-navigate", (event) => {
    if (policy.isAppUrl(event.url)) return;
    event.preventDefault();
    // A file link the page could not mark as a download (a cross-origin <a download>).
    if (policy.isServerDownload(event.url)) contents.downloadURL(event.url);
  });
  for (const name of ["will-frame-navigate", "will-redirect"] as const) {
    contents.on(name, (event) => {
      if (!policy.isAppUrl(event.url)) event.preventDefault();
    });
  }
  contents.on("will-attach-webview", (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (policy.isServerDownload(url)) contents.downloadURL(url);
    else policy.openExternal(url);
    return { action: "deny" };
  });
}

export interface CreateMainWindowOptions extends MainWindowSettings, NavigationPolicy {
  BrowserWindow: BrowserWindowConstructor;
  /** Closing the window hides it to the tray unless the app is quitting. */
  isQuitting: () => boolean;
  saveBounds: (bounds: WindowBounds) => void;
}

export function createMainWindow(options: CreateMainWindowOptions): BrowserWindowLike {
  const window = new options.BrowserWindow(mainWindowOptions(options));
  if (options.bounds.maximized) window.maximize();
  guardNavigation(window.webContents, options);
  window.once("ready-to-show", () => window.show());
  window.on("close", (event) => {
    options.saveBounds({ ...window.getNormalBounds(), maximized: window.isMaximized() });
    if (!options.isQuitting()) {
      event.preventDefault();
      window.hide();
    }
  });
  return window;
}

/** Brings the window forward: shown, restored from minimized, focused. */
export function focusWindow(window: BrowserWindowLike | null): void {
  if (!window || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
