import type { Knex } from "knex";
import { MESSAGE_CHANGE_MESSAGES } from "../../shared/message-changes";
import type { Services } from "../context";
import { badRequest, conflict } from "../errors";
import { Message, StoredFile, type User } from "../models";
import type { MessageChange } from "../policies/message-changes";
import { deleteStoredFiles } from "../storage/delete-stored-files";

/**
 * Editing and deleting one's own message (issue 28, point 3), once the policy has allowed it
 * (policies/message-changes.ts: the author, within the window). Each runs in a transaction that
 * locks the message first, so an edit, a deletion and a decision on a file never cross, and
 * records MessageEdited or MessageDeleted: realtime tells the sides that may read it (an
 * internal note's, the staff only). Search, the unanswered-messages email and the conversation's
 * views read the row as it is now, so they follow without more.
 */

/** The message locked in `trx`; 409 when it was deleted meanwhile. */
async function lockedMessage(trx: Knex.Transaction, id: string): Promise<Message> {
  const message = await Message.query(trx).findById(id).forUpdate();
  if (!message || message.deletedAt) throw conflict(MESSAGE_CHANGE_MESSAGES.deleted);
  return message;
}

/**
 * Replaces the message's text (a file's caption) with `content`, keeping the previous text in
 * `message_edits` for the workspace's staff. A file without text has nothing to edit: 400.
 * The same text again changes nothing.
 */
export async function editMessage(
  services: Services,
  actor: User,
  { message, client }: MessageChange,
  content: string,
): Promise<void> {
  const text = content.trim();
  const recorded = await services.db.transaction(async (trx) => {
    const locked = await lockedMessage(trx, message.id);
    if (locked.content === null) throw badRequest(MESSAGE_CHANGE_MESSAGES.noText);
    if (locked.content === text) return null;
    const now = services.clock.now();
    await trx("messageEdits").insert({
      messageId: locked.id,
      content: locked.content,
      editedAt: now,
      editorId: actor.id,
    });
    await Message.query(trx).findById(locked.id).patch({ content: text, editedAt: now });
    return services.events.record(trx, {
      type: "MessageEdited",
      clientId: client.id,
      messageId: locked.id,
      visibility: locked.visibility,
    });
  });
  if (recorded) services.events.dispatch(recorded);
}

/** Whether anyone has decided on this file: the version's status, or one person's decision. */
async function hasDecision(trx: Knex.Transaction, message: Message): Promise<boolean> {
  if (!message.requiresFeedback) return false;
  if (message.feedbackStatus !== "pending") return true;
  const decided = await trx("approvalDecisions")
    .where({ messageId: message.id })
    .whereNot("status", "pending")
    .first();
  return decided !== undefined;
}

/**
 * Deletes the message: the row stays (its place in the conversation, read marks and catch-up
 * hold) with `deleted_at` set and its text, file and request for a decision emptied in the same
 * transaction. A file may go only while nobody has decided on it (409 after). With it go its
 * pending approvals, marks, decision links, due reminders and due date, and its previous texts;
 * a later version leaves its thread, whose previous version is the latest again. The file's
 * bytes and preview are removed after the commit.
 */
export async function deleteMessage(
  services: Services,
  { message, client }: MessageChange,
): Promise<void> {
  const done = await services.db.transaction(async (trx) => {
    const locked = await lockedMessage(trx, message.id);
    if (await hasDecision(trx, locked)) throw conflict(MESSAGE_CHANGE_MESSAGES.decided);
    const file = locked.fileId
      ? await StoredFile.query(trx).select("id", "storedName").findById(locked.fileId)
      : undefined;
    for (const table of ["approvalDecisions", "annotations", "feedbackLinks", "dueReminders"])
      await trx(table).where({ messageId: locked.id }).delete();
    await trx("fileDueDates").where({ threadId: locked.id }).delete();
    await trx("messageEdits").where({ messageId: locked.id }).delete();
    await Message.query(trx).findById(locked.id).patch({
      content: null,
      fileId: null,
      requiresFeedback: false,
      feedbackStatus: null,
      feedbackComment: null,
      versionOf: null,
      versionNumber: 1,
      deletedAt: services.clock.now(),
    });
    if (file) await StoredFile.query(trx).deleteById(file.id);
    const recorded = await services.events.record(trx, {
      type: "MessageDeleted",
      clientId: client.id,
      messageId: locked.id,
      visibility: locked.visibility,
    });
    return { recorded, storedNames: file ? [file.storedName] : [] };
  });
  services.events.dispatch(done.recorded);
  await deleteStoredFiles(services, done.storedNames);
}
