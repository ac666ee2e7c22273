import { AsyncLocalStorage } from "node:async_hooks";
import type { Knex } from "knex";
import { type Claim, recordMessage } from "./claims";

/**
 * The claim of the request being served, if it sent an Idempotency-Key. It follows the request
 * (AsyncLocalStorage) so that the one place every message is stored (appendMessage) can tie
 * the message to the claim in its transaction, without every command passing it along.
 */
const currentClaim = new AsyncLocalStorage<Claim>();

export function runWithClaim<T>(claim: Claim, work: () => Promise<T>): Promise<T> {
  return currentClaim.run(claim, work);
}

/** Runs `work` in a transaction when the request holds a claim (so the claim is recorded with it). */
export function inClaimTransaction<T>(db: Knex, work: (db: Knex) => Promise<T>): Promise<T> {
  return currentClaim.getStore() ? db.transaction((trx) => work(trx)) : work(db);
}

/** Ties a just-stored message to the request's claim, in the message's transaction `trx`. */
export async function recordIdempotentMessage(trx: Knex, messageId: string): Promise<void> {
  const claim = currentClaim.getStore();
  if (claim) await recordMessage(trx, claim, messageId);
}
