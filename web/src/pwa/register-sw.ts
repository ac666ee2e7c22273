/**
 * Registers the service worker (/sw.js: the shell offline, web push) once the page has
 * loaded, in production builds (Vite's dev server has no /sw.js). Kept tiny: it is part of
 * the portal's first load. A browser that has notifications on tells the server again which
 * subscription it has (after a sign-in the old session's rows are gone), in a chunk of its own.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker
      .register("/sw.js")
      .then(() => {
        if ("PushManager" in window && Notification.permission === "granted")
          return import("./push-subscription").then((push) => push.syncPushSubscription());
      })
      .catch(() => undefined);
  });
}
