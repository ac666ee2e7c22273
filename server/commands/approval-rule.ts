import type { Knex } from "knex";
import type { ApprovalRule } from "../../shared/schemas/messages";
import type { Services } from "../context";
import type { RecordedEvent } from "../domain-events/events";
import { conflict, forbidden } from "../errors";
import { ApprovalDecision, Message, User } from "../models";
import type { ApprovalRow } from "../models/Message";
import { listApprovers } from "../queries/client-approvers";
import { settleVersion } from "./settle-version";
import { msg } from "../../shared/i18n/msg";

export const APPROVAL_MESSAGES = {
  notAsked: msg("You are not asked to approve this version"),
  alreadyDecided: msg("You already gave your feedback on this version"),
} as const;

/** What one person's decision makes of the version. */
export type ApprovalOutcome = "pending" | "approved" | "needs_work";

/**
 * Who must approve a version just sent for approval (issue 27), inside the sending
 * transaction: the rule goes on the message, and with `everyone` each of the client's people
 * who can decide now is asked (a pending row each: the snapshot). Answers the approvals as the
 * presenter shows them, for the message just written.
 */
export async function askApprovers(
  trx: Knex.Transaction,
  message: Pick<Message, "id" | "clientId">,
  rule: ApprovalRule,
): Promise<ApprovalRow[]> {
  await Message.query(trx).findById(message.id).patch({ approvalRule: rule });
  if (rule !== "everyone") return [];
  const people = await listApprovers(trx, message.clientId);
  if (people.length === 0) return [];
  await ApprovalDecision.query(trx).insert(
    people.map((person, position) => ({ messageId: message.id, userId: person.userId, position })),
  );
  return people.map((person) => ({ ...person, status: "pending", comment: null, decidedAt: null }));
}

/** The pending rows of `messageId` whose person still belongs to the client. */
async function requiredRows(trx: Knex.Transaction, message: Message) {
  return ApprovalDecision.query(trx)
    .alias("ad")
    .select("ad.*")
    .join("users as u", "u.id", "ad.userId")
    .where("ad.messageId", message.id)
    .where("u.clientId", message.clientId);
}

/**
 * Records `actor`'s decision on `message` (locked, pending, by the caller: decideFeedback) and
 * says what it makes of the version. `any`: the first decision decides. `everyone`: only a
 * person asked decides, once (409 again, 403 for one not asked); the version is needs_work as
 * soon as one says so, approved when every person asked who is still the client's approved.
 * When every person asked has left, anyone of the client decides, as with `any`.
 */
export async function takeApproval(
  trx: Knex.Transaction,
  message: Message,
  actor: User,
  decision: { status: "approved" | "needs_work"; comment: string | null; at: Date },
): Promise<ApprovalOutcome> {
  const row = { status: decision.status, comment: decision.comment, decidedAt: decision.at };
  const required = message.approvalRule === "everyone" ? await requiredRows(trx, message) : [];
  if (required.length === 0) {
    await ApprovalDecision.query(trx)
      .insert({ messageId: message.id, userId: actor.id, ...row })
      .onConflict(["messageId", "userId"])
      .merge();
    return decision.status;
  }
  const own = required.find((one) => one.userId === actor.id);
  if (!own) throw forbidden(APPROVAL_MESSAGES.notAsked);
  if (own.status !== "pending") throw conflict(APPROVAL_MESSAGES.alreadyDecided);
  await ApprovalDecision.query(trx).findById(own.id).patch(row);
  if (decision.status === "needs_work") return "needs_work";
  const waiting = required.some((one) => one.id !== own.id && one.status !== "approved");
  return waiting ? "pending" : "approved";
}

/**
 * After a person left the client (removeContact, same transaction): a pending version whose
 * every remaining person asked has approved is approved now (by the last of them), its open
 * marks resolved, with its FeedbackDecided for both sides. Answers the events to dispatch after commit.
 */
export async function settleAfterRemoval(
  services: Pick<Services, "events" | "clock">,
  trx: Knex.Transaction,
  clientId: string,
): Promise<RecordedEvent[]> {
  const waiting = await Message.query(trx)
    .where({ clientId, approvalRule: "everyone", feedbackStatus: "pending" })
    .forUpdate();
  const recorded: RecordedEvent[] = [];
  for (const message of waiting) {
    const required = await requiredRows(trx, message);
    if (required.length === 0 || required.some((one) => one.status !== "approved")) continue;
    const last = required.reduce((a, b) =>
      (a.decidedAt?.getTime() ?? 0) >= (b.decidedAt?.getTime() ?? 0) ? a : b,
    );
    const approver = await User.query(trx).findById(last.userId);
    if (!approver) continue;
    const recordedDecision = await services.events.record(trx, {
      type: "FeedbackDecided",
      clientId,
      messageId: message.id,
    });
    const settled = await settleVersion(services, trx, message, {
      status: "approved",
      comment: last.comment,
      at: services.clock.now(),
      by: approver,
    });
    recorded.push(recordedDecision, ...settled.recorded);
  }
  return recorded;
}
