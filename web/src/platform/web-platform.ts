import type { Platform, SecretStorage } from "./platform";

/** Browsers keep the session in an HttpOnly cookie, so there is no secret to store. */
const noSecretStorage: SecretStorage = {
  get: async () => null,
  set: async () => {},
  delete: async () => {},
};

function notificationsSupported(): boolean {
  return typeof window !== "undefined" && "Notification" in window;
}

export const webPlatform: Platform = {
  kind: "web",
  serverUrl: "",
  notify({ title, body, onClick }) {
    if (!notificationsSupported() || Notification.permission !== "granted") return;
    const notification = new Notification(title, { body });
    notification.onclick = () => {
      window.focus();
      onClick?.();
      notification.close();
    };
  },
  async requestNotificationPermission() {
    if (!notificationsSupported()) return false;
    if (Notification.permission === "granted") return true;
    if (Notification.permission === "denied") return false;
    return (await Notification.requestPermission()) === "granted";
  },
  secretStorage: noSecretStorage,
};
