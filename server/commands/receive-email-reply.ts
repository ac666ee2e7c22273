import { MESSAGE_MAX_LENGTH } from "../../shared/schemas/messages";
import { cleanMultiLineText } from "../../shared/schemas/text";
import type { Services } from "../context";
import { HttpError } from "../errors";
import type { ParsedReply } from "../inbound/parse-reply";
import type { ReplyAddress } from "../inbound/reply-address";
import type { ReceivedReply } from "../inbound/smtp-listener";
import { User } from "../models";
import { clientsPolicy, findClient } from "../policies/clients";
import { storeConversationFile } from "../uploads/conversation-files";
import { sendMessage } from "./send-message";
import { uploadConversationFile } from "./upload-conversation-file";

/** At most this many files of one reply become files of the conversation; the rest are skipped. */
export const MAX_REPLY_FILES = 10;

/** The text as a message: cleaned as the API cleans it, cut to the message limit with "…". */
export function replyContent(text: string): string {
  const cleaned = cleanMultiLineText(text).trim();
  if (cleaned.length <= MESSAGE_MAX_LENGTH) return cleaned;
  let cut = cleaned.slice(0, MESSAGE_MAX_LENGTH - 1);
  // Never half a surrogate pair.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/**
 * Posts a reply received by email as its person's messages in the conversation, through the
 * same commands the app uses (so the other side sees it live and is emailed as usual): the new
 * text as one message, then each attachment through the upload checks as a file message.
 * An attachment that fails a check (type, size, content, quota) is skipped and the rest still
 * post; one that cannot be stored is skipped too once something was posted (else it throws,
 * and the mail is retried). Undefined when the person or conversation is gone or may no longer send there.
 */
export async function receiveEmailReply(
  services: Services,
  address: ReplyAddress,
  reply: Pick<ParsedReply, "text" | "attachments">,
): Promise<ReceivedReply | undefined> {
  const [user, client] = await Promise.all([
    User.query(services.db).findById(address.userId),
    findClient(services, address.clientId),
  ]);
  if (!user || !client) return undefined;
  if (!clientsPolicy.can(user, "sendMessage", client)) return undefined;
  const result: ReceivedReply = { messageIds: [], skipped: [] };
  const content = replyContent(reply.text);
  if (content) {
    // A reply by email is never an internal note (issue 26): it answers the conversation.
    const message = await sendMessage(services, user, client, { content, visibility: "client" });
    result.messageIds.push(message.id);
  }
  for (const [index, attachment] of reply.attachments.entries()) {
    if (index >= MAX_REPLY_FILES) {
      result.skipped.push({
        filename: attachment.filename,
        reason: `At most ${MAX_REPLY_FILES} files per email`,
      });
      continue;
    }
    try {
      const file = await storeConversationFile(
        services.storage,
        attachment.filename,
        attachment.content,
      );
      const message = await uploadConversationFile(services, user, client, file, {
        requiresFeedback: false,
      });
      result.messageIds.push(message.id);
    } catch (error) {
      if (error instanceof HttpError) {
        result.skipped.push({ filename: attachment.filename, reason: error.message });
        continue;
      }
      // Nothing posted yet: the sender's server retries the whole mail (451). Once something
      // is posted a retry would post it twice, so the file is skipped and the failure logged.
      if (result.messageIds.length === 0) throw error;
      services.logger.error(
        { err: error, clientId: client.id, filename: attachment.filename },
        "a file of a reply by email could not be stored",
      );
      result.skipped.push({ filename: attachment.filename, reason: "Could not be stored" });
    }
  }
  return result;
}
