import { describe, expect, it } from "vitest";
import { isAppUrl } from "../common/app-origin";
import { FakeSession } from "../test/fake-electron";
import { installPermissionHandlers } from "./permissions";

function setup() {
  const session = new FakeSession();
  installPermissionHandlers(session, (url) => isAppUrl(url));
  const request = (permission: string, url: string) => {
    let granted: boolean | null = null;
    session.permissionRequestHandler!(
      { getURL: () => url },
      permission,
      (answer: boolean) => {
        granted = answer;
      },
      { requestingUrl: url, isMainFrame: true },
    );
    return granted;
  };
  const check = (permission: string, origin: string) =>
    session.permissionCheckHandler!({ getURL: () => origin }, permission, origin, {
      isMainFrame: true,
    });
  return { session, request, check };
}

describe("permissions", () => {
  it("deny camera, microphone, geolocation and the rest by default", () => {
    const { request, check } = setup();
    for (const permission of [
      "media",
      "geolocation",
      "midi",
      "midiSysex",
      "display-capture",
      "clipboard-read",
      "pointerLock",
      "openExternal",
      "hid",
      "serial",
      "usb",
      "idle-detection",
      "window-management",
      "unknown",
    ]) {
      expect(request(permission, "app://clientdesk/"), permission).toBe(false);
      expect(check(permission, "app://clientdesk"), permission).toBe(false);
    }
  });

  it("allow notifications for the app", () => {
    const { request, check } = setup();
    expect(request("notifications", "app://clientdesk/")).toBe(true);
    expect(check("notifications", "app://clientdesk")).toBe(true);
  });

  it("deny even notifications to anything that is not the app", () => {
    const { request, check } = setup();
    expect(request("notifications", "https://evil.example/")).toBe(false);
    expect(check("notifications", "http://localhost:3000")).toBe(false);
  });

  it("deny device access", () => {
    const { session } = setup();
    expect(session.devicePermissionHandler!({ deviceType: "usb" })).toBe(false);
  });
});
