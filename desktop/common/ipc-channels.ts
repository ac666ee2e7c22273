/**
 * Every IPC channel between the renderer (through the preload) and main, in one place
 * (Mattermost's `src/common/communication.ts`). Nothing else names a channel as a string.
 */
export const IpcChannels = {
  /** renderer -> main (invoke): show a system notification built in main. */
  showNotification: "clientdesk:show-notification",
  /** renderer -> main (invoke): the number of unread messages, for the tray and badge. */
  setUnreadCount: "clientdesk:set-unread-count",
  /** main -> renderer (send): open the conversation with this client id. */
  openConversation: "clientdesk:open-conversation",
  /** renderer -> main (invoke, no arguments): Google sign-in in the system browser; resolves with the outcome. */
  startGoogleSignIn: "clientdesk:start-google-sign-in",
  /** renderer -> main (invoke, no arguments): stop waiting for the browser. */
  cancelGoogleSignIn: "clientdesk:cancel-google-sign-in",
  /** renderer -> main (invoke): check a dropped or chosen file and stream it to the server. */
  uploadFile: "clientdesk:upload-file",
  /** renderer -> main (invoke): stop a running upload by its id. */
  cancelUpload: "clientdesk:cancel-upload",
  /** main -> renderer (send): bytes of an upload sent so far. */
  uploadProgress: "clientdesk:upload-progress",
  /** renderer -> main (invoke): the user's saved unsent messages (desktop/main/pending-messages-store.ts). */
  loadPendingMessages: "clientdesk:load-pending-messages",
  /** renderer -> main (invoke): replace the saved unsent messages with the current ones. */
  savePendingMessages: "clientdesk:save-pending-messages",
} as const;

export type IpcChannel = (typeof IpcChannels)[keyof typeof IpcChannels];

/** The command-line switch that hands the server address to the (sandboxed) preload. */
export const SERVER_URL_SWITCH = "--clientdesk-server-url=";
