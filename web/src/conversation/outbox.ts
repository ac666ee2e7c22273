import { useSyncExternalStore } from "react";

/**
 * Text messages the server has not confirmed yet, per conversation: "sending" while the
 * request and its retries run, "failed" once they gave up (shown as Not sent, with Retry).
 * Kept outside React so they survive switching conversations.
 */
export interface OutboxEntry {
  /** The Idempotency-Key: also the entry's identity, and reused by Retry. */
  key: string;
  content: string;
  state: "sending" | "failed";
  /** The newest message of the conversation when this one was sent (none: it was empty). */
  afterId: string | undefined;
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
    set(
      clientId,
      (entries.get(clientId) ?? EMPTY).map((entry) =>
        entry.key === key ? { ...entry, state } : entry,
      ),
    );
  },
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

function subscribe(listener: () => void) {
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
