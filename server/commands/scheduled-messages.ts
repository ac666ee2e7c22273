import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { Visibility } from "../../shared/schemas/message-payload";
import {
  SCHEDULE_MAX_AHEAD_MS,
  SCHEDULE_MESSAGES,
  SCHEDULE_MIN_LEAD_MS,
  type UpdateScheduledMessageInput,
} from "../../shared/schemas/scheduled-messages";
import type { Services } from "../context";
import type { RecordedEvent } from "../domain-events/events";
import { badRequest, notFound } from "../errors";
import { type Client, type Message, ScheduledMessage, User } from "../models";
import { clientsPolicy, findClient } from "../policies/clients";
import type { ScheduledInConversation } from "../policies/scheduled-messages";
import { conversationsWithDueMessages, loadScheduledMessage } from "../queries/scheduled-messages";
import { appendMessage, messageEvent } from "./send-message";

/**
 * Scheduled send (issue 28, point 2). A scheduled message is a row of `scheduled_messages`
 * until its time; then, in one transaction, the row is deleted and the message appended by
 * appendMessage, the path of every message: it is sent as if typed at that moment (its
 * createdAt, seq, emails to the other side, push and live events are a typed message's).
 * The row is taken FOR UPDATE SKIP LOCKED, so of two instances (or the job and Send now) one
 * sends it and the other finds it locked or gone: exactly once, across restarts too.
 */

export interface NewScheduledMessage {
  content: string;
  visibility?: Visibility;
  sendAt: string;
}

/** `sendAt` as a Date, at least a minute and at most a year after `now`; else 400. */
function checkedSendAt(now: Date, sendAt: string): Date {
  const at = new Date(sendAt);
  if (at.getTime() < now.getTime() + SCHEDULE_MIN_LEAD_MS)
    throw badRequest(SCHEDULE_MESSAGES.tooSoon);
  if (at.getTime() > now.getTime() + SCHEDULE_MAX_AHEAD_MS)
    throw badRequest(SCHEDULE_MESSAGES.tooLate);
  return at;
}

/** Writes the change with its ScheduledMessagesChanged event; the listeners run after commit. */
async function changeScheduled<T>(
  services: Services,
  clientId: string,
  side: ScheduledMessage["authorRole"],
  change: (trx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  const { result, recorded } = await services.db.transaction(async (trx) => ({
    result: await change(trx),
    recorded: await services.events.record(trx, {
      type: "ScheduledMessagesChanged",
      clientId,
      side,
    }),
  }));
  services.events.dispatch(recorded);
  return result;
}

/** The scheduled message as presented, read again in `trx`; 404 once it is gone. */
async function reloaded(trx: Knex, id: string): Promise<ScheduledMessage> {
  const row = await loadScheduledMessage(trx, id);
  if (!row) throw notFound("Message not found");
  return row;
}

/**
 * Schedules a text message (or an internal note, staff only, as sendMessage) of the actor to
 * `client`, to be sent at `sendAt`.
 */
export async function scheduleMessage(
  services: Services,
  actor: User,
  client: Client,
  input: NewScheduledMessage,
): Promise<ScheduledMessage> {
  const visibility = input.visibility ?? "client";
  if (visibility === "internal") clientsPolicy.authorize(actor, "writeInternalNote", client);
  const sendAt = checkedSendAt(services.clock.now(), input.sendAt);
  return changeScheduled(services, client.id, actor.role, async (trx) => {
    const id = randomUUID();
    await ScheduledMessage.query(trx).insert({
      id,
      clientId: client.id,
      authorId: actor.id,
      authorRole: actor.role,
      content: input.content.trim(),
      visibility,
      sendAt,
    });
    return reloaded(trx, id);
  });
}

/** New text, new time or both (the author only: policies/scheduled-messages.ts). */
export async function updateScheduledMessage(
  services: Services,
  { scheduled, client }: ScheduledInConversation,
  input: UpdateScheduledMessageInput,
): Promise<ScheduledMessage> {
  const sendAt =
    input.sendAt === undefined ? undefined : checkedSendAt(services.clock.now(), input.sendAt);
  return changeScheduled(services, client.id, scheduled.authorRole, async (trx) => {
    // Locked: one the job is sending now is not changed under it (it is gone after).
    const current = await ScheduledMessage.query(trx).findById(scheduled.id).forUpdate();
    if (!current) throw notFound("Message not found");
    await ScheduledMessage.query(trx)
      .findById(scheduled.id)
      .patch({
        ...(input.content !== undefined && { content: input.content.trim() }),
        ...(sendAt && { sendAt }),
        updatedAt: services.clock.now(),
      });
    return reloaded(trx, scheduled.id);
  });
}

/** Cancels it: it is never sent. 404 when it was sent or cancelled meanwhile. */
export async function cancelScheduledMessage(
  services: Services,
  { scheduled, client }: ScheduledInConversation,
): Promise<void> {
  await changeScheduled(services, client.id, scheduled.authorRole, async (trx) => {
    const deleted = await ScheduledMessage.query(trx).deleteById(scheduled.id);
    if (deleted === 0) throw notFound("Message not found");
  });
}

/**
 * The client of a scheduled message when it is still there to send to; undefined drops the
 * message. The one place that says whether a client is gone (a deleted client's rows are
 * gone with it; a client kept for a while after deletion must answer undefined here too).
 */
export async function clientStillThere(
  services: Services,
  trx: Knex,
  clientId: string,
): Promise<Client | undefined> {
  return findClient({ db: trx, clientCache: services.clientCache }, clientId);
}

/** Whether the author may still post this in the conversation (else it is dropped). */
function authorMayStillPost(author: User, client: Client, visibility: Visibility): boolean {
  return clientsPolicy.can(
    author,
    visibility === "internal" ? "writeInternalNote" : "sendMessage",
    client,
  );
}

export type SendOutcome =
  | { kind: "sent"; message: Message; client: Client; author: User }
  /** The client or the author's access is gone: deleted without sending. */
  | { kind: "dropped" }
  /** Sent or cancelled already, locked by another sender, or not due (`dueBy`). */
  | { kind: "skipped" };

interface Taken {
  outcome: SendOutcome;
  recorded: RecordedEvent[];
}

/**
 * Sends a scheduled row locked by `trx`: deletes it and appends the message as if typed now,
 * or drops it when its client or its author's access is gone.
 */
async function sendLockedRow(
  services: Services,
  trx: Knex.Transaction,
  row: ScheduledMessage,
): Promise<Taken> {
  const event = services.events.row("MessageCreated");
  await ScheduledMessage.query(trx).deleteById(row.id);
  const changed: RecordedEvent[] = [
    await services.events.record(trx, {
      type: "ScheduledMessagesChanged",
      clientId: row.clientId,
      side: row.authorRole,
    }),
  ];
  const client = await clientStillThere(services, trx, row.clientId);
  const author = await User.query(trx).findById(row.authorId);
  if (!client || !author || !authorMayStillPost(author, client, row.visibility))
    return { outcome: { kind: "dropped" }, recorded: changed };
  const message = await appendMessage(
    trx,
    client.id,
    author,
    { content: row.content, visibility: row.visibility, sentAt: services.clock.now() },
    event,
  );
  return {
    outcome: { kind: "sent", message, client, author },
    recorded: [messageEvent(event, author, client, message), ...changed],
  };
}

/**
 * Sends scheduled message `id` now, whatever its time (Send now), once: the row taken FOR
 * UPDATE SKIP LOCKED, deleted, and the message appended, in one transaction.
 */
export async function sendScheduledMessage(services: Services, id: string): Promise<SendOutcome> {
  const { outcome, recorded } = await services.db.transaction(async (trx): Promise<Taken> => {
    const row = await ScheduledMessage.query(trx).findById(id).forUpdate().skipLocked();
    if (!row) return { outcome: { kind: "skipped" }, recorded: [] };
    return sendLockedRow(services, trx, row);
  });
  services.events.dispatch(recorded);
  return outcome;
}

/**
 * Sends one conversation's messages due by `now`, in the order they were due (then scheduled):
 * five messages set for 9:00 arrive in the order they were written. The conversation is locked
 * first, as appendMessage locks it, so a second instance's pass over the same conversation
 * waits and then finds them gone, rather than sending some of them in between.
 */
async function sendDueInConversation(
  services: Services,
  clientId: string,
  now: Date,
): Promise<SendOutcome[]> {
  const taken = await services.db.transaction(async (trx) => {
    await trx.raw("select id from clients where id = ? for no key update", [clientId]);
    const rows = await ScheduledMessage.query(trx)
      .where("clientId", clientId)
      .where("sendAt", "<=", now)
      .orderBy(["sendAt", "createdAt", "id"])
      .forUpdate()
      .skipLocked();
    const sent: Taken[] = [];
    for (const row of rows) sent.push(await sendLockedRow(services, trx, row));
    return sent;
  });
  services.events.dispatch(taken.flatMap((one) => one.recorded));
  return taken.map((one) => one.outcome);
}

/** How many conversations one pass serves; the rest wait for the next pass. */
const BATCH_SIZE = 200;

/** The job's pass: sends every scheduled message whose time has come. */
export async function sendDueScheduledMessages(
  services: Services,
): Promise<{ due: number; sent: number; dropped: number }> {
  const now = services.clock.now();
  const clientIds = await conversationsWithDueMessages(services.db, now, BATCH_SIZE);
  const result = { due: 0, sent: 0, dropped: 0 };
  for (const clientId of clientIds) {
    try {
      for (const outcome of await sendDueInConversation(services, clientId, now)) {
        result.due += 1;
        if (outcome.kind === "sent") result.sent += 1;
        if (outcome.kind === "dropped") result.dropped += 1;
      }
    } catch (error) {
      // Nothing of that conversation's was written: the next pass tries again.
      services.logger.error({ err: error, clientId }, "scheduled messages failed");
    }
  }
  return result;
}
