import type { Knex } from "knex";
import { fillVariables, firstNameOf } from "../../shared/saved-reply-variables";
import { conversationUrl } from "../conversation-url";
import { type Client, User } from "../models";

/**
 * A saved reply's text filled in for one conversation (issue 28): the client's first person
 * (the client row itself: its user's own name once they have joined, else the name the staff
 * gave), the client's name, the writer's first name, and the portal's address of this
 * conversation, as the emails link it (never an invite link: it would sign anyone in).
 */
export async function fillSavedReply(
  db: Knex,
  appUrl: string,
  text: string,
  client: Client,
  actor: User,
): Promise<string> {
  const person = client.userId
    ? await User.query(db).select("fullName").findById(client.userId)
    : undefined;
  return fillVariables(text, {
    "client.firstName": firstNameOf(person?.fullName || client.name),
    "client.name": client.name,
    "me.firstName": firstNameOf(actor.fullName),
    "portal.link": conversationUrl(appUrl, "client", client.id),
  });
}
