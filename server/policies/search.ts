import type { Knex } from "knex";
import { notFound } from "../errors";
import { Client, type User } from "../models";
import { findClient } from "./clients";
import { definePolicy } from "./policy";

/** Which messages a search may look at: one owner's conversations, or one of them. */
export interface SearchScope {
  ownerId: string;
  /** Only this conversation. */
  clientId?: string;
}

const isOwnerOf = (actor: User, client: Client) => client.ownerId === actor.id;
const isClientOf = (actor: User, client: Client) =>
  client.userId !== null && client.userId === actor.id;

/**
 * Owners search all their conversations, or one of theirs; a client searches their own
 * conversation only. Any other conversation answers 404 (its existence is not revealed).
 */
export const searchPolicy = definePolicy({
  searchAll: (actor: User) => actor.role === "owner" || notFound("Client not found"),
  searchConversation: (actor: User, client: Client | undefined) =>
    (client !== undefined && (isOwnerOf(actor, client) || isClientOf(actor, client))) ||
    notFound("Client not found"),
});

/**
 * The scope of the actor's search: `clientId` when given and theirs; otherwise every
 * conversation of an owner, or a client's own conversation.
 */
export async function authorizedSearchScope(
  db: Knex,
  actor: User,
  clientId: string | undefined,
): Promise<SearchScope> {
  if (clientId !== undefined) {
    const client = await findClient(db, clientId);
    searchPolicy.authorize(actor, "searchConversation", client);
    return { ownerId: client!.ownerId, clientId: client!.id };
  }
  if (searchPolicy.can(actor, "searchAll")) return { ownerId: actor.id };
  const own = await Client.query(db)
    .select("id", "ownerId", "userId")
    .findOne({ userId: actor.id });
  searchPolicy.authorize(actor, "searchConversation", own);
  return { ownerId: own!.ownerId, clientId: own!.id };
}
