import { z } from "zod";
import { MESSAGE_MAX_LENGTH } from "../../shared/schemas/messages";
import {
  MAX_PENDING_MESSAGES,
  MAX_REASON_LENGTH,
  type PendingMessage,
} from "../../web/src/platform/pending-messages";
import { createSecureStore, type SafeStorageLike, type SecureStoreFs } from "./secure-store";

/**
 * The owner's unsent messages across restarts (web/src/app/keep-pending-messages.tsx
 * saves and loads them): one file in userData holding one user's messages, encrypted with
 * safeStorage exactly like the session (secure-store.ts: ciphertext only, mode 0600, written
 * whole then renamed). Where the secure store refuses (no keychain, or Linux's basic_text
 * backend) they are kept in memory only, like the session. Deleted on sign-out.
 */
const idShape = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, "not an id");

export const userIdInput = idShape;

export const pendingMessageSchema = z.strictObject({
  clientId: idShape,
  key: z.uuid({ error: "not an Idempotency-Key" }),
  content: z.string().min(1).max(MESSAGE_MAX_LENGTH),
  afterId: idShape.optional(),
  failed: z.boolean().optional(),
  reason: z.string().max(MAX_REASON_LENGTH).optional(),
  since: z.number().int().min(0),
}) satisfies z.ZodType<PendingMessage>;

export const savePendingMessagesInput = z.strictObject({
  userId: idShape,
  messages: z.array(pendingMessageSchema).max(MAX_PENDING_MESSAGES),
});

type Saved = z.infer<typeof savePendingMessagesInput>;

export interface PendingMessagesStore {
  load(userId: string): Promise<PendingMessage[]>;
  save(userId: string, messages: PendingMessage[]): Promise<void>;
  /** Forgets them, on disk and in memory (sign-out). */
  clear(): Promise<void>;
}

export interface PendingMessagesStoreOptions {
  safeStorage: SafeStorageLike;
  /** e.g. `${app.getPath("userData")}/pending-messages.bin` */
  filePath: string;
  platform: NodeJS.Platform;
  fs?: SecureStoreFs;
  log?: (message: string) => void;
}

export function createPendingMessagesStore(
  options: PendingMessagesStoreOptions,
): PendingMessagesStore {
  const secure = createSecureStore(options);
  const log = options.log ?? (() => {});
  /** What was last saved or read; undefined until the file was read once. */
  let current: Saved | null | undefined;
  let warned = false;
  /** Writes one after another, in the order they were asked for. */
  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = (task: () => Promise<unknown>) => {
    const run = queue.then(task);
    queue = run.catch((error: unknown) => {
      log(`pending messages: ${error instanceof Error ? error.message : String(error)}`);
    });
    return queue.then(() => {});
  };

  const read = async (): Promise<Saved | null> => {
    const text = await secure.load();
    if (!text) return null;
    try {
      return savePendingMessagesInput.parse(JSON.parse(text));
    } catch {
      await secure.clear();
      return null;
    }
  };

  const write = async (saved: Saved | null) => {
    if (!saved || saved.messages.length === 0) return secure.clear();
    const result = await secure.save(JSON.stringify(saved));
    if (!result.stored && !warned) {
      warned = true;
      log(`unsent messages kept in memory only (${result.reason}): not written to disk`);
    }
  };

  return {
    async load(userId) {
      await queue;
      if (current === undefined) current = await read();
      if (!current || current.userId === userId) return current?.messages ?? [];
      // Another user's: only the current user's are kept.
      current = null;
      await enqueue(() => write(null));
      return [];
    },
    save(userId, messages) {
      current = { userId, messages };
      const saved = current;
      return enqueue(() => write(saved));
    },
    clear() {
      current = null;
      return enqueue(() => secure.clear());
    },
  };
}
