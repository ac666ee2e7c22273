/**
 * Where the app looks for updates. A packaged app reads only app-update.yml, which
 * electron-builder writes at build time from electron-builder.yml's `publish`:
 * CLIENTDESK_UPDATE_URL is ignored there, because on Linux an AppImage or .deb update is not
 * signature-checked and a .deb installs as root, so an environment variable must not be able to
 * swap the feed. An unpackaged app (development, tests) updates only from CLIENTDESK_UPDATE_URL:
 * https, or plain http on this machine.
 */
export type UpdateFeed =
  | { source: "url"; url: string }
  | { source: "app-update.yml" }
  | { source: "none"; reason: string };

export interface UpdateFeedInputs {
  /** CLIENTDESK_UPDATE_URL: read only when not packaged. */
  feedUrl: string | undefined;
  isPackaged: boolean;
  /** Whether the packaged app has its app-update.yml. */
  hasAppUpdateConfig: boolean;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function chooseUpdateFeed({
  feedUrl,
  isPackaged,
  hasAppUpdateConfig,
}: UpdateFeedInputs): UpdateFeed {
  if (isPackaged)
    return hasAppUpdateConfig
      ? { source: "app-update.yml" }
      : { source: "none", reason: "the app has no app-update.yml" };
  if (feedUrl) return feedFromUrl(feedUrl);
  return { source: "none", reason: "not packaged and no CLIENTDESK_UPDATE_URL" };
}

/** An unpackaged app's address: https, or http on this machine. */
function feedFromUrl(value: string): UpdateFeed {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { source: "none", reason: "CLIENTDESK_UPDATE_URL is not a URL" };
  }
  if (url.username || url.password)
    return {
      source: "none",
      reason: "CLIENTDESK_UPDATE_URL must not hold a user name or password",
    };
  const localHttp = url.protocol === "http:" && LOOPBACK.has(url.hostname);
  if (url.protocol === "https:" || localHttp) return { source: "url", url: url.toString() };
  return {
    source: "none",
    reason: "CLIENTDESK_UPDATE_URL must use https:// (or http:// on this machine)",
  };
}
