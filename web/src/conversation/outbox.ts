import { useSyncExternalStore } from "react";

/**
 * Text messages the server has not confirmed yet, per conversation, oldest first: "sending"
 * while its turn comes and its request runs, "queued" while the server cannot be reached (sent
 * in order when it can: message-queue.ts), "failed" once the server refused it or it kept
 * failing (shown as Not sent, with Retry). Kept outside React so they survive switching
 * conversations; in memory (the web page asks before a reload loses them: leave-warning.tsx;
 * the desktop app saves them across restarts: app/keep-pending-messages.tsx).
 */
export interface OutboxEntry {
  /** The Idempotency-Key: also the entry's identity, and reused by every attempt and Retry. */
  key: string;
  content: string;
  /** An internal note of the staff (issue 26): never a message to the client. */
  visibility?: "internal";
  state: "sending" | "queued" | "failed";
  /** The newest message of the conversation when this one was sent (none: it was empty). */
  afterId: string | undefined;
  /** Attempts that got no answer while the server seemed reachable (see message-queue.ts). */
  misses?: number;
  /** It waited for the connection once: a refusal then leaves it as Not sent, not in the field. */
  waited?: boolean;
  /** The server's reason when it refused the message. */
  reason?: string;
}

const EMPTY: OutboxEntry[] = [];
const entries = new Map<string, OutboxEntry[]>();
const listeners = new Set<() => void>();
/** Messages the server returned for an outbox entry: no other entry is matched with them. */
const confirmedIds = new Set<string>();

function set(clientId: string, next: OutboxEntry[]) {
  if (next.length === 0) entries.delete(clientId);
  else entries.set(clientId, next);
  for (const listener of listeners) listener();
}

export const outbox = {
  add(clientId: string, entry: OutboxEntry) {
    set(clientId, [...(entries.get(clientId) ?? EMPTY), entry]);
  },
  setState(clientId: string, key: string, state: OutboxEntry["state"]) {
    outbox.update(clientId, key, { state });
  },
  update(clientId: string, key: string, change: Partial<Omit<OutboxEntry, "key">>) {
    set(
      clientId,
      (entries.get(clientId) ?? EMPTY).map((entry) =>
        entry.key === key ? { ...entry, ...change } : entry,
      ),
    );
  },
  /** The conversation's entries, oldest first. */
  of: (clientId: string): OutboxEntry[] => entries.get(clientId) ?? EMPTY,
  /** Conversations with entries. */
  clientIds: (): string[] => [...entries.keys()],
  /** The server stored the entry as `messageId`. */
  confirm(clientId: string, key: string, messageId: string) {
    confirmedIds.add(messageId);
    outbox.remove(clientId, key);
  },
  isConfirmed: (messageId: string) => confirmedIds.has(messageId),
  remove(clientId: string, key: string) {
    set(
      clientId,
      (entries.get(clientId) ?? EMPTY).filter((entry) => entry.key !== key),
    );
  },
};

/** Called after every change; returns the unsubscribe. (Not on `outbox`: the portal has no use.) */
export function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The conversation's unconfirmed messages, oldest first. */
export function useOutbox(clientId: string): OutboxEntry[] {
  return useSyncExternalStore(
    subscribe,
    () => entries.get(clientId) ?? EMPTY,
    () => EMPTY,
  );
}
