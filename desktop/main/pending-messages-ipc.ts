import { IpcChannels } from "../common/ipc-channels";
import { handleTrusted, parse, type TrustedIpc } from "./ipc";
import {
  type PendingMessagesStore,
  savePendingMessagesInput,
  userIdInput,
} from "./pending-messages-store";

/**
 * Load and save of the unsent messages: the sender is checked (the app's own page, main
 * frame) and the arguments parsed with zod before anything is read or written.
 */
export function registerPendingMessagesHandlers(
  options: TrustedIpc & { store: PendingMessagesStore },
): void {
  const { store } = options;
  handleTrusted(options, IpcChannels.loadPendingMessages, 1, (userId) =>
    store.load(parse(userIdInput, userId, IpcChannels.loadPendingMessages)),
  );
  handleTrusted(options, IpcChannels.savePendingMessages, 1, async (payload) => {
    const { userId, messages } = parse(
      savePendingMessagesInput,
      payload,
      IpcChannels.savePendingMessages,
    );
    await store.save(userId, messages);
  });
}
