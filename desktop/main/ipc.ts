import { z } from "zod";
import { IpcChannels } from "../common/ipc-channels";
import type { Notifier } from "./notifications";

/**
 * Every IPC handler, registered in one function (Mattermost's pattern). Each one first
 * checks that the call comes from the app's own page in the main frame, then parses its
 * arguments with zod; anything else is refused with an error (the renderer's invoke()
 * rejects) and nothing happens.
 */
export const showNotificationInput = z.strictObject({
  title: z.string().trim().min(1).max(200),
  body: z.string().max(1000),
  clientId: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, "not a client id")
    .optional(),
});

export const unreadCountInput = z.number().int().min(0).max(1_000_000);

export interface SenderFrameLike {
  url: string;
  /** null for a main frame. */
  parent: unknown;
}

export interface IpcInvokeEventLike {
  senderFrame: SenderFrameLike | null;
}

export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown,
  ): void;
}

export interface IpcServices {
  ipcMain: IpcMainLike;
  isAppUrl: (url: string) => boolean;
  notifier: Notifier;
  setUnreadCount: (count: number) => void;
  log?: (message: string) => void;
}

export class IpcRefusedError extends Error {
  override name = "IpcRefusedError";
}

export function assertTrustedSender(
  event: IpcInvokeEventLike,
  isAppUrl: (url: string) => boolean,
): void {
  const frame = event.senderFrame;
  if (!frame) throw new IpcRefusedError("IPC refused: the sending frame is gone");
  if (frame.parent !== null && frame.parent !== undefined) {
    throw new IpcRefusedError("IPC refused: not from the main frame");
  }
  if (!isAppUrl(frame.url)) throw new IpcRefusedError("IPC refused: not from the app");
}

export function parse<T>(schema: z.ZodType<T>, value: unknown, channel: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? ` (${issue.path.join(".")})` : "";
    throw new IpcRefusedError(
      `IPC refused: bad arguments for ${channel}${where}: ${issue?.message ?? "invalid"}`,
    );
  }
  return result.data;
}

export function registerIpcHandlers(services: IpcServices): void {
  const { ipcMain, isAppUrl, notifier } = services;
  const log = services.log ?? (() => {});

  /** Wraps a handler with the sender check and argument count; logs refusals. */
  const handle = (channel: string, handler: (...args: unknown[]) => void) => {
    ipcMain.handle(channel, (event, ...args) => {
      try {
        assertTrustedSender(event, isAppUrl);
        if (args.length !== 1)
          throw new IpcRefusedError(`IPC refused: ${channel} takes one argument`);
        handler(...args);
      } catch (error) {
        log(error instanceof Error ? error.message : String(error));
        throw error;
      }
    });
  };

  handle(IpcChannels.showNotification, (payload) => {
    notifier.show(parse(showNotificationInput, payload, IpcChannels.showNotification));
  });

  handle(IpcChannels.setUnreadCount, (count) => {
    services.setUnreadCount(parse(unreadCountInput, count, IpcChannels.setUnreadCount));
  });
}
