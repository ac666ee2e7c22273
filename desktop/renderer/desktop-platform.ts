import type { DesktopApi } from "../common/desktop-api";
import type { Platform, SecretStorage } from "../../web/src/platform/platform";
import { createDesktopUpload } from "./desktop-upload";

/**
 * The owner app's Platform inside Electron, built on the preload's `window.clientdesk`.
 * Notifications are shown by main; the server is the configured one; there is no secret to
 * store here: main keeps the session (in the OS keychain) and the renderer never sees it.
 */
export interface DesktopPlatform extends Platform {
  kind: "desktop";
  /** Runs (once) the onClick of the last notification about `clientId`, if any. */
  runNotificationClick(clientId: string): void;
}

const noSecretStorage: SecretStorage = {
  get: async () => null,
  set: async () => {},
  delete: async () => {},
};

function pendingMessagesOf(api: DesktopApi): Pick<Platform, "pendingMessages"> {
  const { loadPendingMessages, savePendingMessages } = api;
  if (!loadPendingMessages || !savePendingMessages) return {};
  return { pendingMessages: { load: loadPendingMessages, save: savePendingMessages } };
}

export function createDesktopPlatform(api: DesktopApi): DesktopPlatform {
  const clickHandlers = new Map<string, () => void>();
  // Google sign-in runs in main and the system browser (desktop/main/google-sign-in.ts).
  const { signInWithGoogle, cancelGoogleSignIn } = api;
  const google: Pick<Platform, "signInWithGoogle" | "cancelGoogleSignIn"> = signInWithGoogle
    ? {
        signInWithGoogle: () =>
          signInWithGoogle().then(
            (result) => result.outcome,
            () => "failed" as const,
          ),
        cancelGoogleSignIn: () => {
          cancelGoogleSignIn?.().catch(() => {});
        },
      }
    : {};
  return {
    ...google,
    kind: "desktop",
    serverUrl: api.getServerUrl(),
    notify({ title, body, clientId, onClick }) {
      if (clientId && onClick) clickHandlers.set(clientId, onClick);
      api.showNotification({ title, body, ...(clientId ? { clientId } : {}) }).catch(() => {
        // Notifications are a courtesy: a refusal changes nothing on the page.
      });
    },
    // Main shows notifications itself; no web permission is involved.
    requestNotificationPermission: async () => true,
    secretStorage: noSecretStorage,
    runNotificationClick(clientId) {
      const handler = clickHandlers.get(clientId);
      clickHandlers.delete(clientId);
      handler?.();
    },
    // Streamed uploads: main reads the file from disk (desktop-upload.ts).
    uploadFile: createDesktopUpload(api),
    // Unsent messages survive a restart, encrypted by main (pending-messages-store.ts).
    ...pendingMessagesOf(api),
  };
}
