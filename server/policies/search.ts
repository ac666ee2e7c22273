import { notFound } from "../errors";
import { Client, type User } from "../models";
import type { SearchScope } from "../queries/search-messages";
import { authorizedClient, type ClientSource } from "./clients";
import { seesEveryClient, visibilitiesFor } from "./conversation-sides";
import { definePolicy } from "./policy";

/** Staff search all the conversations they have at once; anyone else, one conversation. */
export const searchPolicy = definePolicy({
  searchAll: (actor: User) => actor.role === "owner" || notFound("Client not found"),
});

/**
 * The scope of the actor's search: `clientId` when the actor may read its messages (else 404,
 * as for the conversation itself); otherwise every conversation of an owner, or a client's own.
 */
export async function authorizedSearchScope(
  source: ClientSource,
  actor: User,
  clientId: string | undefined,
): Promise<SearchScope> {
  if (clientId === undefined && searchPolicy.can(actor, "searchAll"))
    return seesEveryClient(actor)
      ? { ownerId: actor.workspaceId!, withNotes: true }
      : { ownerId: actor.workspaceId!, assigneeId: actor.id, withNotes: true };
  const id = clientId ?? (await Client.idOfUser(source.db, actor)) ?? undefined;
  const client = await authorizedClient(source, actor, "readMessages", id);
  // Internal notes are the staff's: a client's search never finds one.
  return {
    ownerId: client.ownerId,
    clientId: client.id,
    withNotes: visibilitiesFor(actor.role).includes("internal"),
  };
}
