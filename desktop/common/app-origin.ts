/**
 * Where the renderer lives. The packaged app serves it from the privileged custom scheme
 * `app://clientdesk/` (never file://); `npm run desktop:dev` loads it from the Vite dev server.
 */
export const APP_SCHEME = "app";
export const APP_HOST = "clientdesk";
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The page the main window opens. */
export const APP_START_URL = `${APP_ORIGIN}/`;

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * Whether `url` belongs to the app's own pages: app://clientdesk/..., or the dev server's
 * origin when one is given (only when the app is not packaged).
 *
 * `new URL("app://clientdesk/").origin` is "null" (a non-special scheme), so the scheme and
 * host are compared instead of origins.
 */
export function isAppUrl(url: string, devServerOrigin: string | null = null): boolean {
  const parsed = parse(url);
  if (!parsed) return false;
  if (parsed.protocol === `${APP_SCHEME}:`) {
    return parsed.host === APP_HOST && parsed.username === "" && parsed.password === "";
  }
  return devServerOrigin !== null && parsed.origin === devServerOrigin;
}
