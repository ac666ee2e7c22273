/**
 * Updates, behind a small interface. The real one wraps Electron's autoUpdater and runs only
 * in a packaged app with an update feed configured (CLIENTDESK_UPDATE_URL); everything else
 * (development, tests, Linux, no feed) gets the no-op, which makes no network calls.
 */
export interface Updater {
  readonly enabled: boolean;
  /** Starts checking now and every `intervalMs`; returns a stop function. */
  start(intervalMs?: number): () => void;
}

export interface AutoUpdaterLike {
  setFeedURL(options: { url: string }): void;
  checkForUpdates(): void;
  on(event: "error", listener: (error: Error) => void): unknown;
}

export interface UpdaterOptions {
  autoUpdater: AutoUpdaterLike;
  isPackaged: boolean;
  platform: NodeJS.Platform;
  feedUrl: string | undefined;
  log?: (message: string) => void;
}

export const noopUpdater: Updater = { enabled: false, start: () => () => {} };

const SIX_HOURS = 6 * 60 * 60 * 1000;

export function createUpdater(options: UpdaterOptions): Updater {
  // Electron's autoUpdater has no Linux implementation (AppImage/deb update elsewhere).
  if (!options.isPackaged || !options.feedUrl || options.platform === "linux") return noopUpdater;
  let feed: URL;
  try {
    feed = new URL(options.feedUrl);
  } catch {
    return noopUpdater;
  }
  if (feed.protocol !== "https:") return noopUpdater;
  const { autoUpdater } = options;
  const log = options.log ?? (() => {});
  return {
    enabled: true,
    start(intervalMs = SIX_HOURS) {
      autoUpdater.on("error", (error) => log(`update check failed: ${error.message}`));
      autoUpdater.setFeedURL({ url: feed.toString() });
      autoUpdater.checkForUpdates();
      const timer = setInterval(() => autoUpdater.checkForUpdates(), intervalMs);
      return () => clearInterval(timer);
    },
  };
}
