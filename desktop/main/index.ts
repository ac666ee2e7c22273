/**
 * The composition root of the main process: reads the configuration, builds every service
 * with the Electron APIs it needs passed in, and wires them together. No module keeps a
 * singleton; tests start the whole app with the fake electron module.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as electronModule from "electron";
import type { Menu as ElectronMenu, NativeImage, Session as ElectronSession } from "electron";
import { APP_SCHEME, APP_START_URL, isAppUrl } from "../common/app-origin";
import { IpcChannels } from "../common/ipc-channels";
import { type AppMenuOptions, createAppMenu } from "./app-menu";
import { contentSecurityPolicy } from "./csp";
import { createGoogleSignIn } from "./google-sign-in";
import { registerGoogleSignInIpc } from "./google-sign-in-ipc";
import { type IpcMainLike, registerIpcHandlers } from "./ipc";
import { type NotificationConstructor, createNotifier } from "./notifications";
import { createOpenExternal, type ShellLike } from "./open-external";
import { registerPendingMessagesHandlers } from "./pending-messages-ipc";
import { createPendingMessagesStore } from "./pending-messages-store";
import { createFileUploader } from "./file-upload";
import { registerFileUploadHandlers } from "./file-upload-ipc";
import type { UploadNet } from "./upload-request";
import { installPermissionHandlers, type PermissionSession } from "./permissions";
import { createAppProtocolHandler, registerAppScheme } from "./protocol";
import { type SafeStorageLike, createSecureStore } from "./secure-store";
import { type BridgeSession, createServerForwarder, installServerBridge } from "./server-bridge";
import { loadServerConfig, ServerConfigError } from "./server-config";
import { type CookieJar, createSessionKeeper } from "./session-cookie";
import { type AppTray, createTray, type TrayOptions } from "./tray";
import { createUpdateEngine, readPackageType } from "./update-engine";
import { createUpdater } from "./updater";
import { type Rectangle, windowStateFile } from "./window-state";
import {
  type BrowserWindowConstructor,
  type BrowserWindowLike,
  createMainWindow,
  focusWindow,
  type WebContentsLike,
} from "./windows";

export const PRODUCT_NAME = "ClientDesk";
export const APP_USER_MODEL_ID = "com.clientdesk.desktop";
/**
 * The app's session: no "persist:" prefix, so cookies, storage and cache stay in memory.
 * The only thing kept across restarts is the session secret, in the secure store.
 */
export const SESSION_PARTITION = "clientdesk";

/** The parts of the electron module the app uses; tests pass desktop/test/fake-electron.ts. */
export interface DesktopElectron {
  app: {
    readonly isPackaged: boolean;
    enableSandbox(): void;
    requestSingleInstanceLock(): boolean;
    quit(): void;
    exit(code?: number): void;
    whenReady(): Promise<void>;
    getPath(name: "userData"): string;
    setAppUserModelId(id: string): void;
    setBadgeCount(count?: number): boolean;
    on(event: "second-instance", listener: () => void): unknown;
    on(event: "activate", listener: () => void): unknown;
    on(event: "before-quit", listener: () => void): unknown;
    on(event: "window-all-closed", listener: () => void): unknown;
    on(
      event: "web-contents-created",
      listener: (
        event: unknown,
        contents: Pick<WebContentsLike, "on" | "setWindowOpenHandler">,
      ) => void,
    ): unknown;
  };
  BrowserWindow: BrowserWindowConstructor;
  dialog: { showErrorBox(title: string, content: string): void };
  ipcMain: IpcMainLike;
  Menu: TrayOptions<NativeImage, ElectronMenu>["Menu"] & AppMenuOptions<ElectronMenu>["Menu"];
  nativeImage: TrayOptions<NativeImage, ElectronMenu>["nativeImage"];
  Notification: NotificationConstructor;
  protocol: Parameters<typeof registerAppScheme>[0];
  safeStorage: SafeStorageLike;
  screen: { getAllDisplays(): { workArea: Rectangle }[] };
  session: { fromPartition(partition: string): AppSession };
  shell: ShellLike;
  Tray: TrayOptions<NativeImage, ElectronMenu>["Tray"];
  /** Streamed uploads go through Chromium's network stack (file-upload.ts). */
  net: UploadNet<ElectronSession>;
}

export type AppSession = BridgeSession &
  PermissionSession & { cookies: BridgeSession["cookies"] & CookieJar };

export interface StartOptions {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  /** Where the built main process lives (out/main); the preload and renderer are beside it. */
  mainDir: string;
  /** process.resourcesPath of the packaged app (the window and tray icons are copied there). */
  resourcesPath: string;
  log?: (message: string) => void;
}

export interface RunningApp {
  /** The main window once the app is ready; null when this instance quit (second instance). */
  ready: Promise<BrowserWindowLike | null>;
}

/** Only a local Vite dev server may stand in for app://, and only when not packaged. */
function devServerUrl(electron: DesktopElectron, env: StartOptions["env"]): string | null {
  const url = env.ELECTRON_RENDERER_URL;
  if (electron.app.isPackaged || !url) return null;
  try {
    const parsed = new URL(url);
    const local = ["localhost", "127.0.0.1", "[::1]"].includes(parsed.hostname);
    return parsed.protocol === "http:" && local ? parsed.origin : null;
  } catch {
    return null;
  }
}

export function startDesktopApp(electron: DesktopElectron, options: StartOptions): RunningApp {
  const { app } = electron;
  const log = options.log ?? ((message: string) => console.log(`[clientdesk] ${message}`));

  let server: ReturnType<typeof loadServerConfig>;
  try {
    server = loadServerConfig(options.env);
  } catch (error) {
    const message = error instanceof ServerConfigError ? error.message : String(error);
    electron.dialog.showErrorBox(`${PRODUCT_NAME} cannot start`, message);
    app.exit(1);
    return { ready: Promise.resolve(null) };
  }

  // Before ready: every renderer sandboxed, and the app:// scheme privileged.
  app.enableSandbox();
  registerAppScheme(electron.protocol);

  if (!app.requestSingleInstanceLock()) {
    // The first instance gets "second-instance" and comes forward.
    app.quit();
    return { ready: Promise.resolve(null) };
  }

  let mainWindow: BrowserWindowLike | null = null;
  let quitting = false;
  const showMainWindow = () => focusWindow(mainWindow);
  app.on("second-instance", showMainWindow);
  app.on("activate", showMainWindow);
  app.on("before-quit", () => {
    quitting = true;
  });
  let tray: AppTray | null = null;
  // The tray keeps the app running with no window (Quit is in its menu); without one, quit.
  app.on("window-all-closed", () => {
    if (!tray) app.quit();
  });
  // Whatever web contents ever appear: no <webview>, no new windows.
  app.on("web-contents-created", (_event, contents) => {
    contents.on("will-attach-webview", (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: "deny" }));
  });
  if (options.platform === "win32") app.setAppUserModelId(APP_USER_MODEL_ID);

  const ready = app.whenReady().then(async () => {
    const devServer = devServerUrl(electron, options.env);
    const isApp = (url: string) => isAppUrl(url, devServer);
    const csp = contentSecurityPolicy({ server, devServerOrigin: devServer });
    const session = electron.session.fromPartition(SESSION_PARTITION);

    installPermissionHandlers(session, isApp);
    const bridgeOptions = { server, devServerOrigin: devServer, csp };
    installServerBridge(session, bridgeOptions);
    session.protocol.handle(
      APP_SCHEME,
      createAppProtocolHandler({
        rendererRoot: path.join(options.mainDir, "..", "renderer"),
        csp,
        forwardToServer: createServerForwarder(session, bridgeOptions),
      }),
    );

    const userData = app.getPath("userData");
    const store = createSecureStore({
      safeStorage: electron.safeStorage,
      filePath: path.join(userData, "session.bin"),
      platform: options.platform,
    });
    // Unsent messages kept across restarts, encrypted like the session; the session's end
    // (sign-out, or a stored session found expired) deletes them with it.
    const pendingMessages = createPendingMessagesStore({
      safeStorage: electron.safeStorage,
      filePath: path.join(userData, "pending-messages.bin"),
      platform: options.platform,
      log,
    });
    registerPendingMessagesHandlers({
      ipcMain: electron.ipcMain,
      isAppUrl: isApp,
      store: pendingMessages,
      log,
    });
    const sessionStore = {
      ...store,
      clear: () => Promise.all([store.clear(), pendingMessages.clear()]).then(() => {}),
    };
    const keeper = createSessionKeeper({
      cookies: session.cookies,
      store: sessionStore,
      server,
      log,
    });
    keeper.watch();
    await keeper
      .restore()
      .catch((error: unknown) => log(`could not restore the session: ${String(error)}`));

    const stateFile = windowStateFile(userData);
    // electron-builder copies build/icon.png and build/tray.png into the resources folder.
    const resources = app.isPackaged
      ? options.resourcesPath
      : path.join(options.mainDir, "..", "..", "build");
    const iconPath = path.join(resources, "icon.png");
    const openExternal = createOpenExternal(electron.shell, log);
    const window = createMainWindow({
      BrowserWindow: electron.BrowserWindow,
      preloadPath: path.join(options.mainDir, "..", "preload", "index.cjs"),
      partition: SESSION_PARTITION,
      serverUrl: server.serverUrl,
      bounds: stateFile.load(electron.screen.getAllDisplays().map((display) => display.workArea)),
      iconPath,
      devTools: !app.isPackaged,
      isAppUrl: isApp,
      isServerDownload: (url) => url.startsWith(`${server.serverUrl}/api/download/`),
      openExternal,
      isQuitting: () => quitting,
      saveBounds: stateFile.save,
    });
    mainWindow = window;

    try {
      tray = createTray({
        Tray: electron.Tray,
        Menu: electron.Menu,
        nativeImage: electron.nativeImage,
        setBadgeCount: (count) => app.setBadgeCount(count),
        iconPath: path.join(resources, "tray.png"),
        productName: PRODUCT_NAME,
        showWindow: showMainWindow,
        quit: () => app.quit(),
      });
    } catch (error) {
      // Some Linux desktops have no tray; the window still works (closing it then quits).
      log(`no tray: ${String(error)}`);
      quitting = true;
    }

    const appMenu = createAppMenu({
      Menu: electron.Menu,
      platform: options.platform,
      productName: PRODUCT_NAME,
      devTools: !app.isPackaged,
      quit: () => app.quit(),
    });

    const notifier = createNotifier({
      Notification: electron.Notification,
      focusWindow: showMainWindow,
      openConversation: (clientId) => {
        if (!window.isDestroyed()) window.webContents.send(IpcChannels.openConversation, clientId);
      },
    });
    registerIpcHandlers({
      ipcMain: electron.ipcMain,
      isAppUrl: isApp,
      notifier,
      setUnreadCount: (count) => {
        if (tray) tray.setUnreadCount(count);
        else app.setBadgeCount(count);
      },
      log,
    });

    // Google sign-in in the system browser (RFC 8252): google-sign-in.ts.
    registerGoogleSignInIpc({
      ipcMain: electron.ipcMain,
      isAppUrl: isApp,
      googleSignIn: createGoogleSignIn({
        serverUrl: server.serverUrl,
        session,
        openBrowser: (url) => electron.shell.openExternal(url),
        log,
      }),
      showWindow: showMainWindow,
      log,
    });

    // Streamed uploads: main reads the dropped or chosen file from disk and sends it through
    // Electron's net with the app session's cookies (desktop/main/file-upload.ts).
    registerFileUploadHandlers({
      ipcMain: electron.ipcMain,
      isAppUrl: isApp,
      uploader: createFileUploader({
        serverUrl: server.serverUrl,
        net: electron.net,
        // The same object: DesktopElectron describes the session by what the app uses of it.
        session: session as unknown as ElectronSession,
      }),
      log,
    });

    // Updates (electron-updater): "Restart to update" in the tray menu and as a notification.
    createUpdater({
      feedUrl: options.env.CLIENTDESK_UPDATE_URL,
      isPackaged: app.isPackaged,
      updateConfigPath: path.join(
        resources,
        app.isPackaged ? "app-update.yml" : "dev-app-update.yml",
      ),
      createEngine: () =>
        createUpdateEngine({
          platform: options.platform,
          env: options.env,
          packageType: readPackageType(options.resourcesPath),
        }),
      Notification: electron.Notification,
      productName: PRODUCT_NAME,
      showRestartToUpdate: (install) => {
        tray?.showRestartToUpdate(install);
        appMenu.showRestartToUpdate(install);
      },
      willQuitToInstall: () => {
        quitting = true;
      },
      log,
    }).start();

    await window.loadURL(devServer ?? APP_START_URL);
    return window;
  });

  return { ready };
}

// Runs only inside Electron's main process; tests import this file with a fake electron.
if (process.versions.electron && process.type === "browser") {
  const mainDir = path.dirname(fileURLToPath(import.meta.url));
  startDesktopApp(electronModule, {
    env: process.env,
    platform: process.platform,
    mainDir,
    resourcesPath: process.resourcesPath,
  }).ready.catch((error: unknown) => {
    console.error("[clientdesk] failed to start", error);
    electronModule.app.exit(1);
  });
}
