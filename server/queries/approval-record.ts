import type { Knex } from "knex";
import { ownerNameForClient } from "../../shared/owner-name";
import type { ApprovalRule } from "../../shared/schemas/messages";
import { Annotation, type Client, Message, StoredFile } from "../models";
import type { ApprovalRow } from "../models/Message";

/** One mark of the approved version as the record lists it. */
export interface RecordMark {
  number: number;
  page: number;
  comment: string;
  authorName: string;
  resolvedByName: string | null;
  resolvedAt: Date | null;
}

/** What an approval record (issue 27, point 6) states about one approved version. */
export interface ApprovalRecordFacts {
  agencyName: string;
  clientName: string;
  file: StoredFile;
  version: number;
  sentByName: string;
  sentAt: Date;
  approvalRule: ApprovalRule;
  /** Each person's decision; with `any`, the one that decided. */
  approvals: ApprovalRow[];
  marks: RecordMark[];
}

/**
 * The facts of the record of `messageId` (an approved version of `client`'s conversation,
 * checked by the policy): the agency as the portal names it, the file, who sent it and who
 * approved when, and the version's marks the client may read.
 */
export async function loadApprovalRecord(
  db: Knex,
  client: Client,
  messageId: string,
): Promise<ApprovalRecordFacts> {
  const message = await Message.ofConversation(db, client.id, ["client"])
    .where("m.id", messageId)
    .first()
    .throwIfNotFound();
  const [file, owner] = await Promise.all([
    StoredFile.query(db)
      .findById(message.fileId ?? "")
      .throwIfNotFound(),
    client.$relatedQuery("owner", db).select("fullName", "companyName").throwIfNotFound(),
  ]);
  const approvals = (message.approvals ?? []).filter((one) => one.status !== "pending");
  return {
    agencyName: ownerNameForClient(owner),
    clientName: client.name,
    file,
    version: message.versionNumber ?? 1,
    sentByName: message.authorFullName ?? ownerNameForClient(owner),
    sentAt: new Date(message.createdAt),
    approvalRule: message.approvalRule,
    // A decision taken before approval rows existed names the decider from the message.
    approvals:
      approvals.length > 0
        ? approvals
        : [
            {
              userId: message.feedbackBy ?? "",
              name: message.deciderFullName ?? client.name,
              status: "approved",
              comment: message.feedbackComment,
              decidedAt: message.feedbackAt,
            },
          ],
    marks: await loadRecordMarks(db, message),
  };
}

/**
 * The version's marks the client may read (the record goes to both sides), in the order they
 * were made (numbered so), with their resolution.
 */
async function loadRecordMarks(db: Knex, message: Message): Promise<RecordMark[]> {
  const marks = await Annotation.query(db)
    .where({ messageId: message.id, visibility: "client" })
    .orderBy([{ column: "createdAt" }, { column: "id" }]);
  return marks.map((mark, index) => ({
    number: index + 1,
    page: mark.page,
    comment: mark.comment,
    authorName: mark.authorName,
    resolvedByName: mark.resolvedByName,
    resolvedAt: mark.resolvedAt,
  }));
}
