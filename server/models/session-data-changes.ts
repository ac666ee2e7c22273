import type { Knex } from "knex";

type Listener = (transaction?: Knex | Knex.Transaction) => void;

const listeners = new Set<Listener>();

/**
 * Lets a cache of user and session rows (auth/session-cache) hear of every write to them;
 * returns the unsubscribe. Here, beside the models, so that the models need not know the cache.
 */
export function onSessionDataChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called by the User and Session models after any update or delete. */
export function sessionDataChanged(transaction?: Knex | Knex.Transaction): void {
  for (const listener of listeners) listener(transaction);
}
