/**
 * What the preload exposes to the renderer as `window.clientdesk`: named, typed functions
 * only (no ipcRenderer, no generic send/on). The renderer never sees the session secret.
 */
import type {
  DesktopUploadProgress,
  DesktopUploadRequest,
  DesktopUploadResult,
} from "./file-upload";
import type { PendingMessage } from "../../web/src/platform/pending-messages";
export interface DesktopNotificationRequest {
  title: string;
  body: string;
  /** The conversation the notification is about: a click opens it. */
  clientId?: string;
}

export interface DesktopApi {
  /** Shows a system notification; main builds it from these plain strings. */
  showNotification(notification: DesktopNotificationRequest): Promise<void>;
  /** Called with a client id when the user asks to open that conversation (e.g. a click on a notification). Returns an unsubscribe function. */
  onOpenConversation(callback: (clientId: string) => void): () => void;
  /** The server the app talks to, e.g. "http://localhost:3000" (no trailing slash). */
  getServerUrl(): string;
  /** Unread messages across all conversations, for the tray and the dock/taskbar badge. */
  setUnreadCount(count: number): Promise<void>;
  /** Google sign-in in the system browser; resolves once it is over (the app's session is then signed in). */
  signInWithGoogle?(): Promise<DesktopGoogleSignInResult>;
  /** Stops waiting for the browser; the pending signInWithGoogle() resolves "cancelled". */
  cancelGoogleSignIn?(): Promise<void>;
  /**
   * Streams a file the user dropped or chose (a File with a path on disk) from main to the
   * server; rejects for a File the page made itself. See desktop/main/file-upload.ts.
   */
  uploadFile(file: File, request: DesktopUploadRequest): Promise<DesktopUploadResult>;
  /** Called with the progress of every running upload. Returns an unsubscribe function. */
  onUploadProgress(callback: (progress: DesktopUploadProgress) => void): () => void;
  /** Stops a running upload; it then resolves with outcome "cancelled". */
  cancelUpload(uploadId: string): Promise<void>;
  /** The user's unsent messages saved (encrypted) by main; none for another user's. */
  loadPendingMessages?(userId: string): Promise<PendingMessage[]>;
  /** Replaces the saved unsent messages (none: the file is deleted). */
  savePendingMessages?(userId: string, messages: PendingMessage[]): Promise<void>;
}

export type DesktopGoogleSignInResult =
  | { outcome: "signed-in" }
  | { outcome: "cancelled" }
  | { outcome: "failed"; reason: string };

/** The name under which the preload exposes the API on `window`. */
export const DESKTOP_API_KEY = "clientdesk";
