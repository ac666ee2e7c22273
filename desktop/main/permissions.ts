/**
 * Permission requests and checks are denied unless they come from the app's own pages and
 * ask for something on this short list (checklist 8). Camera, microphone, geolocation,
 * MIDI, HID, serial, USB, screen capture, clipboard reading... are all refused.
 */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set([
  "notifications",
  // Writing (never reading) the clipboard: "Copy invite link".
  "clipboard-sanitized-write",
  // The file preview's video player.
  "fullscreen",
]);

export interface PermissionSession {
  setPermissionRequestHandler(
    handler: (
      webContents: { getURL(): string },
      permission: string,
      callback: (granted: boolean) => void,
      details: { requestingUrl?: string },
    ) => void,
  ): void;
  setPermissionCheckHandler(
    handler: (
      webContents: { getURL(): string } | null,
      permission: string,
      requestingOrigin: string,
      details: { requestingUrl?: string },
    ) => boolean,
  ): void;
  setDevicePermissionHandler(handler: () => boolean): void;
}

export function isPermissionAllowed(
  permission: string,
  requestingUrl: string | undefined,
  isAppUrl: (url: string) => boolean,
): boolean {
  return (
    ALLOWED_PERMISSIONS.has(permission) && requestingUrl !== undefined && isAppUrl(requestingUrl)
  );
}

export function installPermissionHandlers(
  session: PermissionSession,
  isAppUrl: (url: string) => boolean,
): void {
  session.setPermissionRequestHandler((webContents, permission, callback, details) => {
    callback(
      isPermissionAllowed(permission, details.requestingUrl ?? webContents.getURL(), isAppUrl),
    );
  });
  session.setPermissionCheckHandler((_webContents, permission, requestingOrigin, details) =>
    isPermissionAllowed(permission, details.requestingUrl ?? requestingOrigin, isAppUrl),
  );
  session.setDevicePermissionHandler(() => false);
}
