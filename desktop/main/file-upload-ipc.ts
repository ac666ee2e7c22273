import type { z } from "zod";
import { IpcChannels } from "../common/ipc-channels";
import type { DesktopUploadProgress } from "../common/file-upload";
import { type FileUploader, uploadFileInput, uploadIdInput } from "./file-upload";
import {
  assertTrustedSender,
  type IpcInvokeEventLike,
  type IpcMainLike,
  IpcRefusedError,
  parse,
} from "./ipc";

/** The page that asked: progress goes back to it alone. */
export interface UploadSender {
  send(channel: string, ...args: unknown[]): void;
  isDestroyed?(): boolean;
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
export function registerFileUploadHandlers(options: {
  ipcMain: IpcMainLike;
  isAppUrl: (url: string) => boolean;
  uploader: FileUploader;
  log?: (message: string) => void;
}): void {
  const { ipcMain, isAppUrl, uploader } = options;
  const log = options.log ?? (() => {});

  const checked = <T>(
    channel: string,
    event: IpcInvokeEventLike,
    args: unknown[],
    schema: z.ZodType<T>,
  ): T => {
    try {
      assertTrustedSender(event, isAppUrl);
      if (args.length !== 1)
        throw new IpcRefusedError(`IPC refused: ${channel} takes one argument`);
      return parse(schema, args[0], channel);
    } catch (error) {
      log(error instanceof Error ? error.message : String(error));
      throw error;
    }
  };

  ipcMain.handle(IpcChannels.uploadFile, async (event, ...args) => {
    const input = checked(IpcChannels.uploadFile, event, args, uploadFileInput);
    const sender = senderOf(event);
    const result = await uploader.upload(input, (progress: DesktopUploadProgress) => {
      if (sender && !sender.isDestroyed?.()) sender.send(IpcChannels.uploadProgress, progress);
    });
    if (result.outcome !== "uploaded") log(`upload ${input.uploadId}: ${result.outcome}`);
    return result;
  });

  ipcMain.handle(IpcChannels.cancelUpload, (event, ...args) => {
    return uploader.cancel(checked(IpcChannels.cancelUpload, event, args, uploadIdInput));
  });
}
