/**
 * Where the app looks for updates. CLIENTDESK_UPDATE_URL wins (https; a packaged app takes
 * nothing else); without it a packaged app reads app-update.yml, which electron-builder writes
 * from electron-builder.yml's `publish`. An unpackaged app (development, tests) updates only
 * from an explicit address, which may also be plain http on this machine.
 */
export type UpdateFeed =
  | { source: "url"; url: string }
  | { source: "app-update.yml" }
  | { source: "none"; reason: string };

export interface UpdateFeedInputs {
  /** CLIENTDESK_UPDATE_URL */
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
  if (feedUrl) return feedFromUrl(feedUrl, isPackaged);
  if (!isPackaged) return { source: "none", reason: "not packaged and no CLIENTDESK_UPDATE_URL" };
  if (!hasAppUpdateConfig) return { source: "none", reason: "the app has no app-update.yml" };
  return { source: "app-update.yml" };
}

function feedFromUrl(value: string, isPackaged: boolean): UpdateFeed {
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
  if (url.protocol === "https:" || (localHttp && !isPackaged))
    return { source: "url", url: url.toString() };
  return {
    source: "none",
    reason: isPackaged
      ? "CLIENTDESK_UPDATE_URL must use https://"
      : "CLIENTDESK_UPDATE_URL must use https:// (or http:// on this machine when not packaged)",
  };
}
