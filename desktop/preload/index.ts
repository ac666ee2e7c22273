/**
 * The preload: runs sandboxed before the page, and gives it `window.clientdesk`, a few
 * named functions (checklist 2). No ipcRenderer, no generic send/on, no Node. Main checks
 * the sender and the arguments of every call again.
 */
import { contextBridge, type IpcRendererEvent, ipcRenderer, webUtils } from "electron";
import { DESKTOP_API_KEY, type DesktopApi } from "../common/desktop-api";
import { IpcChannels, SERVER_URL_SWITCH } from "../common/ipc-channels";

/** Main passes the server address on the command line (webPreferences.additionalArguments). */
function serverUrlFromArgv(argv: readonly string[]): string {
  const argument = argv.find((value) => value.startsWith(SERVER_URL_SWITCH));
  const value = argument?.slice(SERVER_URL_SWITCH.length) ?? "";
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return url.origin;
  } catch {
    // Fall through.
  }
  throw new Error("ClientDesk: the server address is missing");
}

const serverUrl = serverUrlFromArgv(process.argv);

/** Who must approve (issue 27), passed on only when it is one of the two rules. */
function approvalRuleOf(target: { approvalRule?: unknown }): { approvalRule?: "any" | "everyone" } {
  return target.approvalRule === "any" || target.approvalRule === "everyone"
    ? { approvalRule: target.approvalRule }
    : {};
}

const api: DesktopApi = {
  async showNotification({ title, body, clientId }) {
    // Only the three plain fields are sent, whatever else the object carries.
    await ipcRenderer.invoke(IpcChannels.showNotification, {
      title: String(title),
      body: String(body),
      ...(clientId === undefined ? {} : { clientId: String(clientId) }),
    });
  },
  onOpenConversation(callback) {
    const listener = (_event: IpcRendererEvent, clientId: unknown) => {
      if (typeof clientId === "string" && clientId.length > 0) callback(clientId);
    };
    ipcRenderer.on(IpcChannels.openConversation, listener);
    return () => {
      ipcRenderer.removeListener(IpcChannels.openConversation, listener);
    };
  },
  getServerUrl: () => serverUrl,
  async setUnreadCount(count) {
    await ipcRenderer.invoke(IpcChannels.setUnreadCount, count);
  },
  // Google sign-in in the system browser (desktop/main/google-sign-in.ts).
  signInWithGoogle: () => ipcRenderer.invoke(IpcChannels.startGoogleSignIn),
  async cancelGoogleSignIn() {
    await ipcRenderer.invoke(IpcChannels.cancelGoogleSignIn);
  },
  // Streamed uploads: the path comes from the File itself, never from the page.
  async uploadFile(file, { uploadId, target, idempotencyKey }) {
    // "" for a File the page made itself: only files the user dropped or chose have a path.
    const filePath = webUtils.getPathForFile(file);
    if (!filePath) {
      return {
        outcome: "refused",
        status: 400,
        message: "Only a file dropped or chosen from your computer can be uploaded",
      };
    }
    return ipcRenderer.invoke(IpcChannels.uploadFile, {
      uploadId: String(uploadId),
      filePath,
      target:
        target.kind === "conversation"
          ? {
              kind: "conversation",
              clientId: String(target.clientId),
              requiresFeedback: target.requiresFeedback === true,
              ...(target.dueDate ? { dueDate: String(target.dueDate) } : {}),
              ...approvalRuleOf(target),
            }
          : {
              kind: "version",
              messageId: String(target.messageId),
              ...(target.dueDate ? { dueDate: String(target.dueDate) } : {}),
              ...approvalRuleOf(target),
            },
      idempotencyKey: String(idempotencyKey),
    });
  },
  onUploadProgress(callback) {
    const listener = (_event: IpcRendererEvent, progress: unknown) => {
      const { uploadId, sent, total } = (progress ?? {}) as Record<string, unknown>;
      if (typeof uploadId === "string" && typeof sent === "number" && typeof total === "number")
        callback({ uploadId, sent, total });
    };
    ipcRenderer.on(IpcChannels.uploadProgress, listener);
    return () => {
      ipcRenderer.removeListener(IpcChannels.uploadProgress, listener);
    };
  },
  async cancelUpload(uploadId) {
    await ipcRenderer.invoke(IpcChannels.cancelUpload, String(uploadId));
  },
  // Unsent messages kept across restarts (desktop/main/pending-messages-store.ts).
  loadPendingMessages: (userId) =>
    ipcRenderer.invoke(IpcChannels.loadPendingMessages, String(userId)),
  async savePendingMessages(userId, messages) {
    await ipcRenderer.invoke(IpcChannels.savePendingMessages, { userId: String(userId), messages });
  },
};

contextBridge.exposeInMainWorld(DESKTOP_API_KEY, api);
