import type { Knex } from "knex";
import { hashToken } from "../auth/sessions";
import { notFound } from "../errors";
import { ApprovalDecision, Client, FeedbackLink, Message, StoredFile, User } from "../models";
import { msg } from "../../shared/i18n/msg";

/** 256-bit random, base64url (43 characters); only the SHA-256 is stored. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function isWellFormedFeedbackToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

export const FEEDBACK_LINK_MESSAGES = {
  invalid: msg("This link is not valid."),
  used: msg("This link was already used."),
  expired: msg("This link has expired: links in emails work for 7 days."),
} as const;

/** A link with what its page shows: the file message, its file, the conversation and owner. */
export interface FoundFeedbackLink {
  link: FeedbackLink;
  message: Message;
  file: StoredFile | undefined;
  client: Client;
  owner: User;
  /** The client user the link was mailed to. */
  user: User;
  /** That user has decided on this version already (rule "everyone", issue 27). */
  userDecided: boolean;
}

/** The link a token names with its file and conversation; 404 when unknown. Reads only. */
export async function findFeedbackLink(db: Knex, token: string): Promise<FoundFeedbackLink> {
  if (!isWellFormedFeedbackToken(token)) throw notFound(FEEDBACK_LINK_MESSAGES.invalid);
  const link = await FeedbackLink.query(db).findOne({ tokenHash: hashToken(token) });
  const message = link ? await Message.query(db).findById(link.messageId) : undefined;
  const client = message ? await Client.live(db).findById(message.clientId) : undefined;
  const [owner, user, file, decision] = await Promise.all([
    client ? User.query(db).findById(client.ownerId) : undefined,
    link ? User.query(db).findById(link.userId) : undefined,
    message?.fileId ? StoredFile.query(db).findById(message.fileId) : undefined,
    link
      ? ApprovalDecision.query(db)
          .findOne({ messageId: link.messageId, userId: link.userId })
          .whereNot("status", "pending")
      : undefined,
  ]);
  if (!link || !message || !client || !owner || !user)
    throw notFound(FEEDBACK_LINK_MESSAGES.invalid);
  return { link, message, file, client, owner, user, userDecided: decision !== undefined };
}
