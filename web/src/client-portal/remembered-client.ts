/**
 * The conversation this browser last opened, so that its signed-out pages (after logging out,
 * or /client with no session) can wear that owner's branding. Only the id: it opens nothing.
 */
const KEY = "clientdesk:last-client";

export function rememberClient(clientId: string): void {
  try {
    window.localStorage.setItem(KEY, clientId);
  } catch {
    // Storage may be off (private mode, a full quota): the pages then show the defaults.
  }
}

export function rememberedClient(): string | null {
  try {
    return window.localStorage.getItem(KEY);
  } catch {
    return null;
  }
}
