import { IpcChannels } from "../common/ipc-channels";
import { assertTrustedSender, type IpcMainLike, IpcRefusedError, parse } from "./ipc";
import {
  type PendingMessagesStore,
  savePendingMessagesInput,
  userIdInput,
} from "./pending-messages-store";

/**
 * Load and save of the unsent messages: the sender is checked (the app's own page, main
 * frame) and the arguments parsed with zod before anything is read or written.
 */
export function registerPendingMessagesHandlers(options: {
  ipcMain: IpcMainLike;
  isAppUrl: (url: string) => boolean;
  store: PendingMessagesStore;
  log?: (message: string) => void;
}): void {
  const { ipcMain, isAppUrl, store } = options;
  const log = options.log ?? (() => {});

  const handle = (channel: string, handler: (argument: unknown) => Promise<unknown>) => {
    ipcMain.handle(channel, (event, ...args) => {
      try {
        assertTrustedSender(event, isAppUrl);
        if (args.length !== 1)
          throw new IpcRefusedError(`IPC refused: ${channel} takes one argument`);
        return handler(args[0]);
      } catch (error) {
        log(error instanceof Error ? error.message : String(error));
        throw error;
      }
    });
  };

  handle(IpcChannels.loadPendingMessages, (userId) =>
    store.load(parse(userIdInput, userId, IpcChannels.loadPendingMessages)),
  );
  handle(IpcChannels.savePendingMessages, async (payload) => {
    const { userId, messages } = parse(
      savePendingMessagesInput,
      payload,
      IpcChannels.savePendingMessages,
    );
    await store.save(userId, messages);
  });
}
