/**
 * What differs between the web build and the desktop app. The owner dashboard talks to the
 * platform only through this interface; `web-platform.ts` is the browser's version and the
 * desktop app adds its own.
 */
import type { StreamUpload } from "../api/upload-transport";
import type { PendingMessageStore } from "./pending-messages";
export interface DesktopNotification {
  title: string;
  body: string;
  /** Called when the user clicks the notification (e.g. to open that conversation). */
  onClick?: () => void;
  /**
   * The conversation it is about. The desktop app builds notifications in its main process,
   * where a click brings the window forward and opens this conversation (then `onClick` runs).
   */
  clientId?: string;
}

export interface SecretStorage {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface Platform {
  kind: "web" | "desktop";
  /** The server's origin, without a trailing slash; "" means the page's own origin. */
  serverUrl: string;
  /** Shows a system notification when allowed; silently does nothing otherwise. */
  notify(notification: DesktopNotification): void;
  /** Asks for permission to notify; resolves to whether notifications may be shown. */
  requestNotificationPermission(): Promise<boolean>;
  secretStorage: SecretStorage;
  /**
   * Desktop app only: Google sign-in in the system browser (RFC 8252), resolving when it is
   * over; signed in, the app's session already holds the server's cookie. The web build has
   * none and navigates to /auth/google instead.
   */
  signInWithGoogle?(): Promise<GoogleSignInOutcome>;
  /** Stops waiting for the browser; the pending signInWithGoogle() resolves "cancelled". */
  cancelGoogleSignIn?(): void;
  /** Desktop only: uploads a file the user dropped or chose, streamed from disk by the app itself. */
  uploadFile?: StreamUpload;
  /** Desktop only: unsent messages kept across restarts (web/src/app/keep-pending-messages.tsx). */
  pendingMessages?: PendingMessageStore;
}

export type GoogleSignInOutcome = "signed-in" | "cancelled" | "failed";
