import type { Knex } from "knex";

const TABLE = "spent_invite_tokens";

/** Remembers a used or replaced invite token (by its hash) as one of this client's. */
export async function rememberSpentInvite(
  trx: Knex,
  clientId: string,
  tokenHash: string,
  now: Date,
): Promise<void> {
  await trx(TABLE).insert({ tokenHash, clientId, spentAt: now }).onConflict("tokenHash").ignore();
}

/** The client whose used or replaced invite token this was; null for any other hash. */
export async function clientOfSpentInvite(db: Knex, tokenHash: string): Promise<string | null> {
  const row: { clientId: string } | undefined = await db(TABLE)
    .select("clientId")
    .where({ tokenHash })
    .first();
  return row?.clientId ?? null;
}
