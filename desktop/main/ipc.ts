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

export interface IpcServices extends TrustedIpc {
  notifier: Notifier;
  setUnreadCount: (count: number) => void;
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

/** What every group of handlers registers with. */
export interface TrustedIpc {
  ipcMain: IpcMainLike;
  isAppUrl: (url: string) => boolean;
  log?: (message: string) => void;
}

/**
 * Registers `handler` behind the checks every handler makes: the call comes from the app's
 * own page in the main frame, with `arity` arguments. A refusal, or an error the handler
 * throws before it returns (a zod refusal), is logged and thrown: the renderer's invoke rejects.
 */
export function handleTrusted(
  { ipcMain, isAppUrl, log }: TrustedIpc,
  channel: string,
  arity: 0 | 1,
  handler: (argument: unknown, event: IpcInvokeEventLike) => unknown,
): void {
  ipcMain.handle(channel, (event, ...args) => {
    try {
      assertTrustedSender(event, isAppUrl);
      if (args.length !== arity) {
        const takes = arity === 0 ? "takes no arguments" : "takes one argument";
        throw new IpcRefusedError(`IPC refused: ${channel} ${takes}`);
      }
      return handler(args[0], event);
    } catch (error) {
      log?.(error instanceof Error ? error.message : String(error));
      throw error;
    }
  });
}

export function registerIpcHandlers(services: IpcServices): void {
  const { notifier } = services;

  handleTrusted(services, IpcChannels.showNotification, 1, (payload) => {
    notifier.show(parse(showNotificationInput, payload, IpcChannels.showNotification));
  });

  handleTrusted(services, IpcChannels.setUnreadCount, 1, (count) => {
    services.setUnreadCount(parse(unreadCountInput, count, IpcChannels.setUnreadCount));
  });
}
