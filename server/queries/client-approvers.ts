import type { Knex } from "knex";

/** One of a client's people who can decide on a file: their user and name. */
export interface ApproverRow {
  userId: string;
  name: string;
}

/**
 * The client's people who can decide on a file now: those who joined (each has a user naming
 * the client), the first contact first, then the further contacts in the order they were
 * added (as list-contacts.ts orders them). A person invited but not joined cannot decide yet.
 */
export async function listApprovers(db: Knex, clientId: string): Promise<ApproverRow[]> {
  return db("users as u")
    .select("u.id as userId", "u.fullName as name")
    .leftJoin("clientContacts as cc", "cc.userId", "u.id")
    .where({ "u.clientId": clientId, "u.role": "client" })
    .orderByRaw("cc.created_at asc nulls first, u.id asc");
}
