import { VISIBILITIES, type Visibility } from "../../shared/schemas/message-payload";
import type { Role } from "../../shared/schemas/user";
import type { Client, User } from "../models";

/**
 * Who stands on which side of a conversation (issue 26). The owner's side is a workspace
 * (`client.ownerId` is its owner's user id): its owner and admins have every client of it, a
 * member only the clients assigned to them. The client's side is its contacts' users.
 */
export const seesEveryClient = (actor: User) =>
  actor.teamRole === "owner" || actor.teamRole === "admin";

export const isStaffOf = (actor: User, client: Pick<Client, "ownerId" | "assigneeIds">) =>
  actor.role === "owner" &&
  actor.workspaceId === client.ownerId &&
  (seesEveryClient(actor) || (client.assigneeIds?.includes(actor.id) ?? false));

/** One of the client's contacts (issue 26): their user names the client. */
export const isClientOf = (actor: User, client: Pick<Client, "id">) =>
  actor.role === "client" && actor.clientId === client.id;

/**
 * Internal notes (issue 26): the visibilities a side of a conversation may read. The owner's
 * side reads everything; the client only what is meant for them, never a note.
 */
export const visibilitiesFor = (role: Role): readonly Visibility[] =>
  role === "owner" ? VISIBILITIES : ["client"];

/** Whether a side of the conversation may ever receive a message of this visibility. */
export const mayRead = (role: Role, visibility: Visibility | undefined) =>
  visibilitiesFor(role).includes(visibility ?? "client");

/**
 * The staff told of a client's new messages, by email and by push: its assigned members, else
 * (nobody assigned) the workspace's owner. Admins see every client but are not told of each.
 * The emails read the same rule in SQL: commands/notification-recipients.ts.
 */
export const staffRecipientIds = (client: Pick<Client, "ownerId" | "assigneeIds">) =>
  client.assigneeIds && client.assigneeIds.length > 0 ? client.assigneeIds : [client.ownerId];
