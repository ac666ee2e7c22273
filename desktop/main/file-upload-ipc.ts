import { IpcChannels } from "../common/ipc-channels";
import type { DesktopUploadProgress } from "../common/file-upload";
import {
  type FileUploader,
  type UploadFileInput,
  uploadFileInput,
  uploadIdInput,
} from "./file-upload";
import { handleTrusted, type IpcInvokeEventLike, parse, type TrustedIpc } from "./ipc";

/** The page that asked: progress goes back to it alone, and its uploads end with it. */
export interface UploadSender {
  send(channel: string, ...args: unknown[]): void;
  isDestroyed?(): boolean;
  on?(event: "destroyed" | "render-process-gone", listener: () => void): unknown;
  on?(
    event: "did-start-navigation",
    listener: (details: { isMainFrame?: boolean; isSameDocument?: boolean }) => void,
  ): unknown;
}

/**
 * The uploads each page started. An upload must not outlive its page: when the page is
 * closed, crashes or navigates away (a main-frame, cross-document navigation; the app's own
 * route changes are same-document), its uploads are cancelled.
 */
function uploadsBySender(uploader: FileUploader) {
  const bySender = new WeakMap<UploadSender, Set<string>>();
  const cancelAll = (sender: UploadSender) => {
    for (const uploadId of bySender.get(sender) ?? []) uploader.cancel(uploadId);
  };
  return {
    /** False when that id already runs for the page (the uploader then refuses it). */
    started(sender: UploadSender, uploadId: string): boolean {
      let uploads = bySender.get(sender);
      if (!uploads) {
        uploads = new Set();
        bySender.set(sender, uploads);
        sender.on?.("destroyed", () => cancelAll(sender));
        sender.on?.("render-process-gone", () => cancelAll(sender));
        sender.on?.("did-start-navigation", (details) => {
          if (details?.isMainFrame && !details.isSameDocument) cancelAll(sender);
        });
      }
      if (uploads.has(uploadId)) return false;
      uploads.add(uploadId);
      return true;
    },
    ended(sender: UploadSender, uploadId: string) {
      bySender.get(sender)?.delete(uploadId);
    },
  };
}

/** Electron's invoke event carries the sending web contents (IpcMainInvokeEvent.sender). */
function senderOf(event: IpcInvokeEventLike): UploadSender | null {
  const sender = (event as { sender?: Partial<UploadSender> }).sender;
  return typeof sender?.send === "function" ? (sender as UploadSender) : null;
}

/**
 * The upload and cancel handlers: the sender is checked (the app's own page, main frame) and
 * the arguments parsed with zod before anything is read from disk.
 */
export function registerFileUploadHandlers(options: TrustedIpc & { uploader: FileUploader }): void {
  const { uploader } = options;
  const log = options.log ?? (() => {});
  const pages = uploadsBySender(uploader);

  const upload = async (input: UploadFileInput, event: IpcInvokeEventLike) => {
    const sender = senderOf(event);
    const tracked = sender !== null && pages.started(sender, input.uploadId);
    const result = await uploader
      .upload(input, (progress: DesktopUploadProgress) => {
        if (sender && !sender.isDestroyed?.()) sender.send(IpcChannels.uploadProgress, progress);
      })
      .finally(() => {
        if (tracked) pages.ended(sender, input.uploadId);
      });
    if (result.outcome !== "uploaded") log(`upload ${input.uploadId}: ${result.outcome}`);
    return result;
  };

  // Parsed before the handler returns, so that a refusal is logged like the sender check's.
  handleTrusted(options, IpcChannels.uploadFile, 1, (argument, event) =>
    upload(parse(uploadFileInput, argument, IpcChannels.uploadFile), event),
  );
  handleTrusted(options, IpcChannels.cancelUpload, 1, (uploadId) =>
    uploader.cancel(parse(uploadIdInput, uploadId, IpcChannels.cancelUpload)),
  );
}
