import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { SendMessageInput } from "../../shared/schemas/messages";
import type { Services } from "../context";
import { isPglite } from "../db/connection";
import type { SqlAnnouncement } from "../realtime/hub";
import { notFound } from "../errors";
import { inClaimTransaction, recordIdempotentMessage } from "../idempotency/current-claim";
import { type Client, Message, type User } from "../models";
import { messageSentCtes } from "./notification-schedule";
import { pushNewMessage } from "../push/push-new-message";

export interface NewMessage {
  /** Chosen here when the caller must know it before the insert (to announce it); else random. */
  id?: string;
  content: string | null;
  fileId?: string | null;
  requiresFeedback?: boolean;
  /** The sender's clock (services.clock), from which the recipient's email delay runs. */
  sentAt: Date;
}

/** The stored message's columns, named as the model has them. */
const MESSAGE_COLUMNS = `id, seq, client_id as "clientId", sender_id as "senderId",
  sender_role as "senderRole", content, file_id as "fileId",
  requires_feedback as "requiresFeedback", feedback_status as "feedbackStatus",
  feedback_comment as "feedbackComment", feedback_at as "feedbackAt",
  feedback_by as "feedbackBy", version_of as "versionOf", version_number as "versionNumber",
  created_at as "createdAt"`;

/**
 * Appends a message to a conversation (text here; uploads call it inside their transaction),
 * in one statement, since every message takes this path:
 * - the conversation row is locked first, so its messages take their seq in commit order: a
 *   reader that has seen seq N never later finds a smaller one appear, and catch-up by
 *   `after` misses nothing;
 * - sending marks everything up to the new message read and answered by the sender
 *   (cancelling their pending email) and schedules the recipient's (notification-schedule.ts);
 * - `announce` (the realtime hub's NOTIFY, on PostgreSQL) runs in the same statement, so the
 *   event leaves with the commit and only if there is a message.
 */
export async function appendMessage(
  db: Knex,
  clientId: string,
  sender: User,
  message: NewMessage,
  announce: SqlAnnouncement | null = null,
): Promise<Message> {
  const emails = messageSentCtes(sender.role, message.sentAt);
  const statement = db.raw(
    `with conversation as (
       select c.id, c.joined_at, c.email_notification_delay as client_delay,
              o.email_notification_delay as owner_delay
         from clients c join users o on o.id = c.owner_id
        where c.id = ?
          for no key update of c
     ), message as (
       insert into messages (id, client_id, sender_id, sender_role, content, file_id,
                             requires_feedback, feedback_status)
       select ?, id, ?, ?, ?, ?, ?, ? from conversation
       returning *
     ), ${emails.sql}
     select ${MESSAGE_COLUMNS}${announce ? `, ${announce.sql} as announced` : ""} from message`,
    [
      clientId,
      message.id ?? randomUUID(),
      sender.id,
      sender.role,
      message.content,
      message.fileId ?? null,
      message.requiresFeedback ?? false,
      message.requiresFeedback ? "pending" : null,
      ...emails.bindings,
      ...(announce?.bindings ?? []),
    ],
  );
  // Every send runs this statement: named, PostgreSQL parses and plans it once per connection
  // (its text never changes; the announcement adds one fixed expression).
  if (!isPglite(db))
    statement.options({ name: announce ? "append_message_announced" : "append_message" });
  const result: { rows: Record<string, unknown>[] } = await statement;
  const row = result.rows[0];
  if (!row) throw notFound("Client not found");
  delete row.announced;
  // With an Idempotency-Key, in the same transaction (see server/idempotency).
  await recordIdempotentMessage(db, String(row.id));
  return Message.fromJson({ ...row, seq: Number(row.seq) }, { skipValidation: true });
}

/**
 * Sends a text message as the actor (owner or client of the conversation) and announces it: on
 * PostgreSQL by a NOTIFY in the storing statement itself, elsewhere once it is stored.
 */
export async function sendMessage(
  services: Services,
  actor: User,
  client: Client,
  input: SendMessageInput,
): Promise<Message> {
  const id = randomUUID();
  const announce = services.realtime.announcement({
    type: "new_message",
    clientId: client.id,
    messageId: id,
  });
  const message = await inClaimTransaction(services.db, (db) =>
    appendMessage(
      db,
      client.id,
      actor,
      { id, content: input.content.trim(), sentAt: services.clock.now() },
      announce,
    ),
  );
  services.metrics.messagesSent.inc({ kind: "text" });
  pushNewMessage(services, actor, client, message);
  if (announce) return message;
  try {
    await services.realtime.publish({
      type: "new_message",
      clientId: client.id,
      messageId: message.id,
    });
  } catch (error) {
    services.logger.warn({ err: error, clientId: client.id }, "could not publish new_message");
  }
  return message;
}
