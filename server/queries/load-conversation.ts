import type { Knex } from "knex";
import { MESSAGE_PAGE_SIZE, type Visibility } from "../../shared/schemas/messages";
import { ownerNameForClient } from "../../shared/owner-name";
import type { Role } from "../../shared/schemas/user";
import { notFound } from "../errors";
import { type Client, Message, NotificationState, type ReadState, type User } from "../models";

/** What presenting a conversation's messages to one viewer needs. */
export interface MessageView {
  viewerRole: Role;
  readState: ReadState;
  senderNames: Record<Role, string>;
}

/**
 * What presenting this conversation's messages to `viewer` needs: read state and names (the
 * owner as the portal names them when the client is looking).
 */
export async function loadMessageView(
  db: Knex,
  viewer: User,
  client: Client,
): Promise<MessageView> {
  const ownerName =
    viewer.id === client.ownerId
      ? viewer.fullName
      : ownerNameForClient(
          await client
            .$relatedQuery("owner", db)
            .select("fullName", "companyName")
            .throwIfNotFound(),
        );
  return {
    viewerRole: viewer.role,
    readState: await NotificationState.readStateOf(db, client.id),
    senderNames: { owner: ownerName, client: client.name },
  };
}

/*
 * `visible`: the visibilities the viewer's side may read (policies/conversation-sides.ts,
 * `visibilitiesFor`): a client's reads never meet an internal note, whose id answers 404.
 */

/** One message of the conversation with its file; 404 for any other id. */
export function loadMessage(
  db: Knex,
  clientId: string,
  messageId: string,
  visible: readonly Visibility[],
) {
  return Message.ofConversation(db, clientId, visible)
    .where("m.id", messageId)
    .first()
    .throwIfNotFound();
}

/** The conversation's file messages, newest first. */
export function loadAttachments(db: Knex, clientId: string, visible: readonly Visibility[]) {
  return Message.ofConversation(db, clientId, visible)
    .whereNotNull("m.fileId")
    .orderBy("m.seq", "desc");
}

/** Every version of the file thread that starts at `rootId`, oldest first. */
export function loadVersions(
  db: Knex,
  clientId: string,
  rootId: string,
  visible: readonly Visibility[],
) {
  return Message.ofConversation(db, clientId, visible)
    .where((query) => query.where("m.id", rootId).orWhere("m.versionOf", rootId))
    .orderBy("m.versionNumber", "asc");
}

export interface PageRequest {
  before?: string;
  after?: string;
  limit: number;
}

/** The seq of a message of this conversation; 404 for any other id. */
export async function seqOf(
  db: Knex,
  clientId: string,
  messageId: string,
  visible: readonly Visibility[],
): Promise<number> {
  const seq = await Message.seqIn(db, clientId, messageId, visible);
  if (seq === undefined) throw notFound("Message not found");
  return seq;
}

/**
 * One page of a conversation, oldest to newest, by keyset on (client_id, seq): the newest
 * `limit` messages; or those just before `before` (hasMore: older ones exist); or those right
 * after `after` (catch-up; hasMore: newer ones exist beyond the page). Each is one index range
 * scan, so a page costs the same in a conversation of any length.
 */
export async function loadMessagePage(
  db: Knex,
  clientId: string,
  page: PageRequest,
  visible: readonly Visibility[],
): Promise<{ messages: Message[]; hasMore: boolean }> {
  const query = Message.ofConversation(db, clientId, visible).limit(page.limit + 1);
  if (page.after) {
    query
      .where("m.seq", ">", await seqOf(db, clientId, page.after, visible))
      .orderBy("m.seq", "asc");
  } else {
    if (page.before) query.where("m.seq", "<", await seqOf(db, clientId, page.before, visible));
    query.orderBy("m.seq", "desc");
  }
  const rows = await query;
  const hasMore = rows.length > page.limit;
  const messages = rows.slice(0, page.limit);
  if (!page.after) messages.reverse();
  return { messages, hasMore };
}

/**
 * What a first screen shows of a conversation (the portal's, the dashboard's): its newest page
 * of messages as GET /api/clients/{id}/messages answers it by default, and what presenting it
 * to `viewer` needs.
 */
export async function loadNewestPage(
  db: Knex,
  viewer: User,
  client: Client,
  visible: readonly Visibility[],
): Promise<{ page: { messages: Message[]; hasMore: boolean }; view: MessageView }> {
  const [page, view] = await Promise.all([
    loadMessagePage(db, client.id, { limit: MESSAGE_PAGE_SIZE }, visible),
    loadMessageView(db, viewer, client),
  ]);
  return { page, view };
}
