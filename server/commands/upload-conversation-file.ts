import type { Knex } from "knex";
import type { ApprovalRule } from "../../shared/schemas/messages";
import type { Config } from "../config";
import type { Services } from "../context";
import type { EventRow } from "../domain-events/domain-events";
import { type Client, Message, StoredFile, type User } from "../models";
import type { ReceivedConversationFile } from "../uploads/conversation-files";
import { deleteStoredFiles } from "../storage/delete-stored-files";
import { askApprovers } from "./approval-rule";
import { writeThreadDueDate } from "./due-dates";
import { appendMessage, messageEvent } from "./send-message";
import { assertStorageRoom } from "./storage-quota";

/** Where a new version goes: its thread's first message and its number there. */
export interface VersionSlot {
  versionOf: string;
  versionNumber: number;
}

/**
 * The files row and the file message, inside `trx`. The message goes through appendMessage
 * (ordering for catch-up, the sender's read state, its event: `options.event`); a version is
 * then tied to its thread.
 * The message comes back with its file's fields, as presenting it wants (no re-read).
 */
export async function insertFileMessage(
  trx: Knex.Transaction,
  actor: User,
  client: Client,
  file: ReceivedConversationFile,
  options: {
    requiresFeedback: boolean;
    /** Who must approve, when it requires feedback (default: any one of the client's people). */
    approvalRule?: ApprovalRule;
    sentAt: Date;
    version?: VersionSlot;
    /** The thread's due date (issue 27); undefined keeps the thread's (a version's). */
    dueDate?: string;
    config: Pick<Config, "billingMode">;
    event: EventRow;
  },
): Promise<Message> {
  await assertStorageRoom(trx, options.config, client.ownerId, file.sizeBytes);
  const row = await StoredFile.query(trx).insert({
    storedName: file.storedName,
    originalName: file.originalName,
    contentType: file.contentType,
    sizeBytes: file.sizeBytes,
    uploadedBy: actor.id,
    clientId: client.id,
  });
  const message = await appendMessage(
    trx,
    client.id,
    actor,
    {
      content: null,
      fileId: row.id,
      requiresFeedback: options.requiresFeedback,
      sentAt: options.sentAt,
    },
    options.event,
  );
  if (options.version) await Message.query(trx).findById(message.id).patch(options.version);
  const dueDate = options.requiresFeedback
    ? await writeThreadDueDate(
        trx,
        options.version?.versionOf ?? message.id,
        options.dueDate,
        actor.id,
        options.sentAt,
      )
    : null;
  const approvalRule = options.approvalRule ?? "any";
  const approvals = options.requiresFeedback
    ? await askApprovers(trx, message, approvalRule)
    : null;
  return message.$set({
    ...options.version,
    dueDate,
    approvalRule,
    approvals,
    fileStoredName: row.storedName,
    fileName: row.originalName,
    fileSize: row.sizeBytes,
    // Nothing is newer than what was just written.
    isLatestVersion: true,
  });
}

/**
 * Makes an uploaded file (already in storage) a message of the conversation: the files row
 * and the message in one transaction; if that fails the bytes are removed. Its FileUploaded
 * event is dispatched after the commit.
 */
export async function uploadConversationFile(
  services: Services,
  actor: User,
  client: Client,
  file: ReceivedConversationFile,
  options: { requiresFeedback: boolean; dueDate?: string; approvalRule?: ApprovalRule },
): Promise<Message> {
  const event = services.events.row("FileUploaded");
  let message: Message;
  try {
    message = await services.db.transaction((trx) =>
      insertFileMessage(trx, actor, client, file, {
        ...options,
        sentAt: services.clock.now(),
        config: services.config,
        event,
      }),
    );
  } catch (error) {
    await deleteStoredFiles(services, [file.storedName]);
    throw error;
  }
  services.events.dispatch(messageEvent(event, actor, client, message));
  return message;
}
