import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import { conflict } from "../errors";
import { CLAIM_LEASE_MS, IDEMPOTENCY_MESSAGES, KEY_LIFETIME_MS } from "./idempotency-key";

/**
 * The rows of idempotency_keys. One row per (user, key), claimed by inserting it before the
 * work starts. Its life: claimed (claim_token names the running attempt) -> message stored
 * (message_id set in the message's own transaction) -> answered (status and body). A failed
 * attempt deletes its row so the retry can run.
 */

export interface Claim {
  userId: string;
  key: string;
  token: string;
}

export type ClaimResult =
  | { kind: "claimed"; claim: Claim }
  /** The first attempt's answer, to send again. */
  | { kind: "answered"; status: number; body: unknown }
  /** The message was stored but the answer was not saved (crash just after the commit). */
  | { kind: "stored"; messageId: string; claim: Claim }
  | { kind: "in_progress" }
  | { kind: "reused" };

interface KeyRow {
  fingerprint: string;
  claimToken: string;
  messageId: string | null;
  status: number | null;
  body: unknown;
  createdAt: Date | string;
}

const TABLE = "idempotency_keys";

/**
 * Claims (user, key) for the request `fingerprint` (method and path), atomically: of two
 * requests with the same key exactly one gets "claimed". An expired key (over 24 h) is claimed
 * anew; an unfinished claim past its lease is taken over.
 */
export async function claimKey(
  db: Knex,
  now: Date,
  userId: string,
  key: string,
  fingerprint: string,
): Promise<ClaimResult> {
  const claim: Claim = { userId, key, token: randomUUID() };
  const fresh = {
    fingerprint,
    claimToken: claim.token,
    messageId: null,
    status: null,
    body: null,
    createdAt: now,
  };
  // A row deleted or taken over between our statements: look again (bounded).
  for (let attempt = 0; attempt < 5; attempt++) {
    const inserted = await db(TABLE)
      .insert({ userId, key, ...fresh })
      .onConflict(["userId", "key"])
      .ignore()
      .returning("claimToken");
    if (inserted.length > 0) return { kind: "claimed", claim };

    const row: KeyRow | undefined = await db(TABLE).where({ userId, key }).first();
    if (!row) continue;
    const createdAt = new Date(row.createdAt).getTime();
    const unfinished = row.messageId === null && row.status === null;
    const expired = createdAt <= now.getTime() - KEY_LIFETIME_MS;
    const abandoned = unfinished && createdAt <= now.getTime() - CLAIM_LEASE_MS;
    if (expired || (abandoned && row.fingerprint === fingerprint)) {
      // Conditional on the token seen: if the first attempt stores its message meanwhile
      // (it locks this row), this update finds the token changed or the message set, and fails.
      const taken = await db(TABLE)
        .where({ userId, key, claimToken: row.claimToken })
        .modify((query) => {
          if (!expired) query.whereNull("messageId").whereNull("status");
        })
        .update(fresh)
        .returning("claimToken");
      if (taken.length > 0) return { kind: "claimed", claim };
      continue;
    }
    if (row.fingerprint !== fingerprint) return { kind: "reused" };
    if (row.status !== null && row.body !== null)
      return { kind: "answered", status: row.status, body: row.body };
    if (row.messageId !== null)
      return {
        kind: "stored",
        messageId: row.messageId,
        claim: { userId, key, token: row.claimToken },
      };
    return { kind: "in_progress" };
  }
  return { kind: "in_progress" };
}

/**
 * Ties the new message to the claim, inside the message's transaction: a retry then sees both
 * or neither. Fails (rolling the message back) when the claim was taken over meanwhile.
 */
export async function recordMessage(trx: Knex, claim: Claim, messageId: string): Promise<void> {
  const updated = await trx(TABLE)
    .where({ userId: claim.userId, key: claim.key, claimToken: claim.token })
    .whereNull("messageId")
    .update({ messageId });
  if (updated === 0) throw conflict(IDEMPOTENCY_MESSAGES.inProgress);
}

/** Saves the answer the first attempt gave (only a successful one is kept). */
export async function saveAnswer(
  db: Knex,
  claim: Claim,
  status: number,
  body: unknown,
): Promise<void> {
  await db(TABLE)
    .where({ userId: claim.userId, key: claim.key, claimToken: claim.token })
    .update({ status, body: JSON.stringify(body ?? null) });
}

/** Frees the key after a failed attempt, unless its message was stored after all. */
export async function releaseClaim(db: Knex, claim: Claim): Promise<void> {
  await db(TABLE)
    .where({ userId: claim.userId, key: claim.key, claimToken: claim.token })
    .whereNull("messageId")
    .delete();
}

/** Deletes keys past their 24 hours; returns how many. */
export async function deleteExpiredKeys(db: Knex, now: Date): Promise<number> {
  return db(TABLE)
    .where("createdAt", "<=", new Date(now.getTime() - KEY_LIFETIME_MS))
    .delete();
}
