import { SCHEDULE_MESSAGES } from "../../shared/schemas/scheduled-messages";
import { uuidSchema } from "../../shared/schemas/common";
import { forbidden, notFound } from "../errors";
import { type Client, ScheduledMessage, type User } from "../models";
import { type ClientSource, findClient } from "./clients";
import { isClientOf, isStaffOf } from "./conversation-sides";
import { definePolicy } from "./policy";

/** A scheduled message with its conversation, as the rules below see it. */
export interface ScheduledInConversation {
  scheduled: ScheduledMessage;
  client: Client;
}

/**
 * A scheduled message (issue 28) exists only for its author's side of the conversation: the
 * staff who have the client for one a staff member wrote, the client's people for one of
 * theirs. The other side, and everyone else, gets 404.
 */
export const onAuthorsSide = (
  actor: User,
  client: Client,
  scheduled: Pick<ScheduledMessage, "authorRole">,
) => (scheduled.authorRole === "owner" ? isStaffOf(actor, client) : isClientOf(actor, client));

const seen = (actor: User, subject: ScheduledInConversation | undefined) =>
  (subject !== undefined && onAuthorsSide(actor, subject.client, subject.scheduled)) ||
  notFound("Message not found");

/**
 * Its side sees it (and a colleague may cancel it, e.g. while its author is away); only its
 * author changes it or sends it now, since it goes out under their name.
 */
export const scheduledMessagesPolicy = definePolicy({
  cancel: seen,
  change: (actor: User, subject: ScheduledInConversation | undefined) => {
    const verdict = seen(actor, subject);
    if (verdict !== true) return verdict;
    return subject!.scheduled.authorId === actor.id || forbidden(SCHEDULE_MESSAGES.notAuthor);
  },
});

export type ScheduledAction = Parameters<typeof scheduledMessagesPolicy.authorize>[1];

/**
 * The scheduled message `id` with its conversation when the actor's side may see it; undefined
 * otherwise (no such scheduled message, or not theirs), so that PATCH and DELETE
 * /api/messages/{id} can leave the id to the routes of sent messages.
 */
export async function findVisibleScheduled(
  source: ClientSource,
  actor: User,
  id: string | undefined,
): Promise<ScheduledInConversation | undefined> {
  if (!id || !uuidSchema.safeParse(id).success) return undefined;
  const scheduled = await ScheduledMessage.query(source.db).findById(id);
  if (!scheduled) return undefined;
  const client = await findClient(source, scheduled.clientId);
  if (!client || !onAuthorsSide(actor, client, scheduled)) return undefined;
  return { scheduled, client };
}
