/**
 * Updates with electron-updater: check at start and every 6 hours, download in the
 * background (verified against the sha512 in latest*.yml), then offer "Restart to update" in
 * the app's menu and as a notification. Failures are logged and never reach the user: the
 * next check tries again, and a downloaded update also installs when the app quits.
 */
import { existsSync } from "node:fs";
import type { AppUpdater } from "electron-updater";
import type { NotificationConstructor, NotificationLike } from "./notifications";
import { chooseUpdateFeed } from "./update-feed";

/** The part of electron-updater's AppUpdater this module drives. */
export type UpdateEngine = Pick<
  AppUpdater,
  | "autoDownload"
  | "autoInstallOnAppQuit"
  | "allowDowngrade"
  | "forceDevUpdateConfig"
  | "logger"
  | "updateConfigPath"
  | "setFeedURL"
  | "checkForUpdates"
  | "quitAndInstall"
  | "on"
>;

export interface Updater {
  readonly enabled: boolean;
  /** Checks now and every `intervalMs`; returns a stop function. */
  start(intervalMs?: number): () => void;
}

export interface UpdaterOptions {
  /** CLIENTDESK_UPDATE_URL */
  feedUrl: string | undefined;
  isPackaged: boolean;
  /**
   * The updater's settings file: the packaged app's app-update.yml, or build/dev-app-update.yml
   * when unpackaged (electron-updater names its download cache from it).
   */
  updateConfigPath: string;
  /** electron-updater's updater for this install; null when it cannot update itself. */
  createEngine: () => UpdateEngine | null;
  Notification: NotificationConstructor;
  productName: string;
  /** Adds "Restart to update" to the app's menu; `install` quits, installs and restarts. */
  showRestartToUpdate: (install: () => void) => void;
  /**
   * Called just before the install: on macOS Electron closes the windows before "before-quit",
   * and a window that hides to the tray on close would hold the quit up.
   */
  willQuitToInstall: () => void;
  log: (message: string) => void;
}

export const SIX_HOURS = 6 * 60 * 60 * 1000;

export const noopUpdater: Updater = { enabled: false, start: () => () => {} };

export function createUpdater(options: UpdaterOptions): Updater {
  const { log } = options;
  const feed = chooseUpdateFeed({
    feedUrl: options.feedUrl,
    isPackaged: options.isPackaged,
    hasAppUpdateConfig: existsSync(options.updateConfigPath),
  });
  if (options.isPackaged && options.feedUrl)
    log("updates: CLIENTDESK_UPDATE_URL is ignored: a packaged app updates from app-update.yml");
  if (feed.source === "none") {
    log(`updates off: ${feed.reason}`);
    return noopUpdater;
  }
  let engine: UpdateEngine | null;
  try {
    engine = options.createEngine();
  } catch (error) {
    log(`updates off: ${String(error)}`);
    return noopUpdater;
  }
  if (!engine) {
    log("updates off: this kind of installation does not update itself");
    return noopUpdater;
  }
  const updates = engine;
  updates.logger = {
    info: (message) => log(`update: ${message}`),
    warn: (message) => log(`update: ${message}`),
    // One line: electron-updater passes "Error: " and the whole stack.
    error: (message) => log(`update failed: ${firstLine(message)}`),
  };
  updates.autoDownload = true;
  updates.autoInstallOnAppQuit = true;
  updates.allowDowngrade = false;
  updates.updateConfigPath = options.updateConfigPath;
  if (feed.source === "url") {
    updates.setFeedURL({ provider: "generic", url: feed.url });
    // electron-updater checks only packaged apps unless told this is on purpose.
    if (!options.isPackaged) updates.forceDevUpdateConfig = true;
  }

  // Silent, then start the new version: the user asked for a restart, not an installer.
  const install = () => {
    options.willQuitToInstall();
    updates.quitAndInstall(true, true);
  };
  const notify = notifier(options.Notification);
  const announced = new Set<string>();
  updates.on("update-downloaded", ({ version }) => {
    options.showRestartToUpdate(install);
    // A later check finds the same download in the cache and says so again: once is enough.
    if (announced.has(version)) return;
    announced.add(version);
    notify(`Update ready: ${options.productName} ${version}`, "Restart to update", install);
  });

  const check = () => {
    try {
      // Failures also arrive as "error" events, which electron-updater logs through `logger`.
      updates
        .checkForUpdates()
        .then((result) => result?.downloadPromise?.catch(() => {}))
        .catch(() => {});
    } catch (error) {
      log(`update failed: ${String(error)}`);
    }
  };
  return {
    enabled: true,
    start(intervalMs = SIX_HOURS) {
      check();
      const timer = setInterval(check, intervalMs);
      timer.unref?.();
      return () => clearInterval(timer);
    },
  };
}

function notifier(Notification: NotificationConstructor) {
  // Electron drops a click handler with its garbage-collected notification: keep them.
  const live = new Set<NotificationLike>();
  return (title: string, body: string, onClick: () => void) => {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title, body });
    live.add(notification);
    notification.on("click", () => {
      live.delete(notification);
      onClick();
    });
    notification.on("close", () => live.delete(notification));
    notification.show();
  };
}

function firstLine(message: unknown): string {
  return String(message)
    .split("\n")[0]!
    .replace(/^(Error: )+/, "");
}
