import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { SendMessageInput, Visibility } from "../../shared/schemas/messages";
import type { Services } from "../context";
import { isPglite } from "../db/connection";
import type { EventRow } from "../domain-events/domain-events";
import type { RecordedEvent } from "../domain-events/events";
import { notFound } from "../errors";
import { inClaimTransaction, recordIdempotentMessage } from "../idempotency/current-claim";
import { type Client, Message, type User } from "../models";
import { clientsPolicy } from "../policies/clients";
import { messageSentCtes } from "./notification-schedule";

export interface NewMessage {
  content: string | null;
  fileId?: string | null;
  requiresFeedback?: boolean;
  /** `internal`: a note of the workspace's staff (issue 26); `client` when absent. */
  visibility?: Visibility;
  /** The sender's clock (services.clock), from which the recipient's email delay runs. */
  sentAt: Date;
}

type MessageEventType = "MessageCreated" | "FileUploaded" | "VersionUploaded";

/** The stored message's columns, named as the model has them. */
const MESSAGE_COLUMNS = `id, seq, client_id as "clientId", sender_id as "senderId",
  sender_role as "senderRole", content, file_id as "fileId",
  requires_feedback as "requiresFeedback", feedback_status as "feedbackStatus",
  feedback_comment as "feedbackComment", feedback_at as "feedbackAt",
  feedback_by as "feedbackBy", version_of as "versionOf", version_number as "versionNumber",
  visibility, created_at as "createdAt"`;

/**
 * Appends a message to a conversation (text here; uploads call it inside their transaction),
 * in one statement, since every message takes this path:
 * - the conversation row is locked first, so its messages take their seq in commit order: a
 *   reader that has seen seq N never later finds a smaller one appear, and catch-up by
 *   `after` misses nothing;
 * - sending marks everything up to the new message read and answered by the sender
 *   (cancelling their side's pending emails) and schedules the recipients' (notification-
 *   schedule.ts);
 *   an internal note (issue 26) does neither: it is not an answer, nor anything to the client;
 * - the domain event (`event`: MessageCreated, FileUploaded or VersionUploaded) is written to
 *   the outbox by the same statement, so it exists exactly when the message does; the caller
 *   dispatches it after commit (server/domain-events).
 */
export async function appendMessage(
  db: Knex,
  clientId: string,
  sender: User,
  message: NewMessage,
  event: EventRow,
): Promise<Message> {
  const emails = messageSentCtes(sender, message.sentAt);
  const statement = db.raw(
    `with conversation as (
       select c.id from clients c where c.id = ? and c.deleted_at is null for no key update of c
     ), message as (
       insert into messages (id, client_id, sender_id, sender_role, content, file_id,
                             requires_feedback, feedback_status, visibility)
       select ?, id, ?, ?, ?, ?, ?, ?, ? from conversation
       returning *
     ), recorded as (
       insert into events (id, queue, type, payload, next_attempt_at, created_at)
       select ?, ?, ?, jsonb_build_object('clientId', client_id, 'messageId', id,
                                          'senderId', sender_id, 'visibility', visibility), ?, ?
         from message
     ), ${emails.sql}
     select ${MESSAGE_COLUMNS},
            -- The statement's snapshot holds the conversation without the new row: its newest
            -- message is the one before. (One committed while we waited for the lock may be
            -- missed: the event then names an older one, and the pages fetch.) Both sides get
            -- the same one: for a message to the client, the one before it that the client
            -- has (never an internal note's id; the staff's page, whose newest is a note,
            -- then fetches once); for a note, which only the staff get, any.
            (select p.id from messages p where p.client_id = message.client_id
                and (message.visibility = 'internal' or p.visibility = 'client')
              order by p.seq desc limit 1) as "previousId"
       from message`,
    [
      clientId,
      randomUUID(),
      sender.id,
      sender.role,
      message.content,
      message.fileId ?? null,
      message.requiresFeedback ?? false,
      message.requiresFeedback ? "pending" : null,
      message.visibility ?? "client",
      event.id,
      event.queue,
      event.type,
      event.nextAttemptAt,
      event.createdAt,
      ...emails.bindings,
    ],
  );
  // Every send runs this statement: named, PostgreSQL parses and plans it once per connection
  // (its text never changes).
  if (!isPglite(db)) statement.options({ name: "append_message" });
  const result: { rows: Record<string, unknown>[] } = await statement;
  const row = result.rows[0];
  if (!row) throw notFound("Client not found");
  // With an Idempotency-Key, in the same transaction (see server/idempotency).
  await recordIdempotentMessage(db, String(row.id));
  return Message.fromJson({ ...row, seq: Number(row.seq) }, { skipValidation: true });
}

/**
 * The event appendMessage wrote for `message`, to dispatch once committed, with what the
 * listeners would otherwise read again (the push's sender, conversation and message).
 */
export function messageEvent(
  row: EventRow,
  sender: User,
  client: Client,
  message: Message,
): RecordedEvent {
  return {
    id: row.id,
    event: {
      type: row.type as MessageEventType,
      clientId: client.id,
      messageId: message.id,
      senderId: sender.id,
      visibility: message.visibility,
    },
    loaded: { sender, client, message },
  };
}

/**
 * Sends a text message as the actor (owner or client of the conversation), or an internal
 * note (`visibility: "internal"`), which only the workspace's staff who have the client may
 * write (policies/clients.ts, writeInternalNote: its client gets 403).
 */
export async function sendMessage(
  services: Services,
  actor: User,
  client: Client,
  input: SendMessageInput,
): Promise<Message> {
  const visibility = input.visibility ?? "client";
  if (visibility === "internal") clientsPolicy.authorize(actor, "writeInternalNote", client);
  const event = services.events.row("MessageCreated");
  const message = await inClaimTransaction(services.db, (db) =>
    appendMessage(
      db,
      client.id,
      actor,
      { content: input.content.trim(), visibility, sentAt: services.clock.now() },
      event,
    ),
  );
  services.events.dispatch(messageEvent(event, actor, client, message));
  return message;
}
