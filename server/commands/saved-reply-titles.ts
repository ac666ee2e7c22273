import type { Knex } from "knex";
import { conflict } from "../errors";
import { SavedReply, User } from "../models";

/**
 * Saved replies (issue 28) are written with the workspace owner's row locked, so that two
 * people cannot pass the cap or take one title together (the unique index would refuse the
 * second with a 500 rather than a clear 409).
 */
export async function lockWorkspace(trx: Knex.Transaction, workspaceId: string): Promise<void> {
  await User.query(trx).findById(workspaceId).forUpdate().throwIfNotFound();
}

/** 409 when another reply of the workspace has this title, whatever its case. */
export async function refuseTakenTitle(
  trx: Knex.Transaction,
  workspaceId: string,
  title: string,
  exceptId?: string,
): Promise<void> {
  const taken = await SavedReply.query(trx)
    .where("workspaceId", workspaceId)
    .whereRaw("lower(title) = lower(?)", [title])
    .modify((query) => {
      if (exceptId) query.whereNot("id", exceptId);
    })
    .first();
  if (taken)
    throw conflict('A saved reply named "{{title}}" already exists', { title: taken.title });
}
