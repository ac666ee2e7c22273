import type { Knex } from "knex";
import type { ApprovalRule } from "../../shared/schemas/messages";
import type { Services } from "../context";
import { badRequest, conflict, type HttpError } from "../errors";
import { type Client, Message, type User } from "../models";
import type { ReceivedConversationFile } from "../uploads/conversation-files";
import { deleteStoredFiles } from "../storage/delete-stored-files";
import { carryOpenMarks } from "./open-marks";
import { messageEvent } from "./send-message";
import { insertFileMessage, type VersionSlot } from "./upload-conversation-file";
import { msg } from "../../shared/i18n/msg";

export const VERSION_MESSAGES = {
  notAThread: msg("Only a file sent for approval can get a new version"),
  notNeedsWork: msg("A new version can only answer a file marked Needs Work"),
} as const;

/** The first message of the file thread `message` belongs to. */
export const threadIdOf = (message: Pick<Message, "id" | "versionOf">) =>
  message.versionOf ?? message.id;

/**
 * Why `target`'s thread cannot get a new version now (400 not a file for approval, 409 its
 * latest version is not needs_work), or where the new version goes. Checked before the upload
 * is read, to refuse early, and again in the upload's transaction, where the thread's first
 * message is locked.
 */
export async function versionRefusal(
  db: Knex,
  target: Message,
): Promise<{ error: HttpError } | (VersionSlot & { previousRule: ApprovalRule })> {
  const rootId = threadIdOf(target);
  const root = await Message.query(db)
    .findById(rootId)
    .modify((query) => {
      if (db.isTransaction) query.forUpdate();
    });
  if (!root?.fileId || !root.requiresFeedback || root.senderRole !== "owner")
    return { error: badRequest(VERSION_MESSAGES.notAThread) };
  const latest = await Message.query(db)
    .where((query) => query.where("id", rootId).orWhere("versionOf", rootId))
    .orderBy("versionNumber", "desc")
    .first();
  if (latest?.feedbackStatus !== "needs_work")
    return { error: conflict(VERSION_MESSAGES.notNeedsWork) };
  return {
    versionOf: rootId,
    versionNumber: latest.versionNumber + 1,
    previousRule: latest.approvalRule,
  };
}

/**
 * Answers a "needs_work" file with a new version: a new file message of the conversation that
 * requires feedback (pending), in the same thread, numbered one past the latest. Allowed only
 * while the thread's latest version is needs_work (else 409). The thread's first message is
 * locked, so two new versions at once cannot both pass that check; the unique
 * (version_of, version_number) backs it. The stored bytes are removed if anything fails.
 * Who must approve is asked again (issue 27): `options.approvalRule`, else the previous
 * version's rule, with the client's people of now.
 */
export async function uploadNewVersion(
  services: Services,
  actor: User,
  client: Client,
  target: Message,
  file: ReceivedConversationFile,
  options: { dueDate?: string; approvalRule?: ApprovalRule } = {},
): Promise<Message> {
  const event = services.events.row("VersionUploaded");
  let message: Message;
  try {
    message = await services.db.transaction(async (trx) => {
      const slot = await versionRefusal(trx, target);
      if ("error" in slot) throw slot.error;
      const { previousRule, ...version } = slot;
      const sentAt = services.clock.now();
      const inserted = await insertFileMessage(trx, actor, client, file, {
        requiresFeedback: true,
        // Asked again as the previous version was, unless the owner says otherwise.
        approvalRule: options.approvalRule ?? previousRule,
        sentAt,
        config: services.config,
        version,
        dueDate: options.dueDate,
        event,
      });
      // The version it answers: its open marks come along as "check these" (issue 27).
      const previous = await Message.query(trx)
        .select("id")
        .where((query) => query.where("id", slot.versionOf).orWhere("versionOf", slot.versionOf))
        .findOne({ versionNumber: slot.versionNumber - 1 });
      const carried = previous ? await carryOpenMarks(trx, previous.id, inserted.id, sentAt) : 0;
      return inserted.$set({ openMarks: carried });
    });
  } catch (error) {
    await deleteStoredFiles(services, [file.storedName]);
    throw error;
  }
  services.events.dispatch(messageEvent(event, actor, client, message));
  return message;
}
