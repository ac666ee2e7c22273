import type { Knex } from "knex";
import type { Role } from "../../shared/schemas/user";
import type { Language } from "../../shared/i18n/languages";
import { withFeatures } from "../billing/feature-tier";
import { forEachLimited } from "../concurrency/for-each-limited";
import type { Services } from "../context";
import { replyToFor } from "../inbound/reply-address";
import { firstLanguage, recipientLanguageSql } from "../i18n/recipient-language";
import type { MailMessage } from "../mail/mail-message";
import { conversationUrl } from "../conversation-url";
import { type BrandingOwner, brandingFor } from "../mail/branding";
import { ownerDisplayName } from "../mail/client-mails";
import {
  type DecisionLinks,
  QUOTED_MESSAGES,
  unansweredMessagesMail,
  type WaitingMessage,
} from "../mail/notification-mails";
import { openMarksOf } from "../queries/open-marks";
import { issueFeedbackLinks } from "./issue-feedback-links";
import { notificationRecipients } from "./notification-recipients";
import { waitingCondition } from "./notification-schedule";

/**
 * The unanswered-messages sweep: takes the due rows of `notification_states`, writes one email
 * per conversation and person covering every message that still waits for them to the mail outbox
 * (server/mail/outbox.ts, which sends and retries it), and records it in the same transaction.
 *
 * Claiming: one statement moves a batch of due rows' `due_at` to a lease (now + LEASE_MS),
 * choosing them with FOR UPDATE SKIP LOCKED, so two instances never take the same row and no
 * lock is held while the mails are written. If the instance dies before the outcome commits,
 * the lease runs out and the next sweep (any instance) writes them. A row changed during the
 * lease (a reply, a read) keeps that change: the outcome only replaces a due_at that is still
 * our lease.
 *
 * Failures to write a mail (its logo, its links): retried after RETRY_MINUTES[attempt], logged
 * each time; after MAX_ATTEMPTS the row gives up (logged as an error, last_error kept) without
 * marking the messages notified, so the next message's email covers them too.
 */

export const LEASE_MS = 10 * 60_000;
export const RETRY_MINUTES = [1, 2, 4, 8, 15, 30, 60, 60, 60, 60] as const;
export const MAX_ATTEMPTS = RETRY_MINUTES.length;
const BATCH_SIZE = 500;
/** One pass handles at most this many rows; the rest wait for the next pass. */
const MAX_ROWS_PER_PASS = 20_000;
const PARALLEL_SENDS = 8;

export interface SweepResult {
  claimed: number;
  /** Emails written to the outbox. */
  sent: number;
  failed: number;
  /** Rows whose messages had been read or answered meanwhile: nothing to send. */
  settled: number;
}

/**
 * A due row with its conversation, its person as notification-recipients.ts has them (null
 * when no longer a recipient: unassigned, removed, the client deleted its user), and the
 * workspace's owner as branding needs them.
 */
interface ClaimedRow extends BrandingOwner {
  clientId: string;
  recipientRole: Role;
  recipientUserId: string;
  afterSeq: number;
  attempts: number;
  clientName: string;
  recipientEmail: string | null;
  recipientName: string | null;
  recipientDelay: number | null;
  /** The person's language (recipient-language.ts), read with the claim: no query per mail. */
  recipientLanguage: Language;
}

interface WaitingRow extends WaitingMessage {
  id: string;
  /** An owner's file that waits for the client's decision (it gets Approve and Needs Work). */
  awaitsDecision: boolean;
  clientId: string;
  recipientUserId: string;
  seq: number;
  total: number;
}

interface Outcome {
  clientId: string;
  recipientUserId: string;
  /** The newest seq the email covered (0 when nothing was sent). */
  notifiedSeq: number;
}

const keyOf = (row: { clientId: string; recipientUserId: string }) =>
  `${row.clientId}/${row.recipientUserId}`;

export async function sendUnansweredNotifications(services: Services): Promise<SweepResult> {
  const result: SweepResult = { claimed: 0, sent: 0, failed: 0, settled: 0 };
  // The next batch is claimed and loaded while this one's mails go out (other rows: no conflict).
  let next: Promise<Batch | null> = takeBatch(services);
  for (;;) {
    const batch = await next;
    if (!batch) break;
    result.claimed += batch.claimed.length;
    const more = batch.claimed.length === BATCH_SIZE && result.claimed < MAX_ROWS_PER_PASS;
    next = more ? takeBatch(services) : Promise.resolve(null);
    try {
      await sendBatch(services, batch, result);
    } catch (error) {
      // Whatever the next batch took is leased: it goes out when the lease runs out.
      await next.catch(() => null);
      throw error;
    }
  }
  return result;
}

interface Batch {
  claimed: ClaimedRow[];
  waiting: Map<string, WaitingRow[]>;
  lease: Date;
}

async function takeBatch(services: Services): Promise<Batch | null> {
  const now = services.clock.now();
  const lease = new Date(now.getTime() + LEASE_MS);
  const claimed = await claimDue(services, now, lease, BATCH_SIZE);
  if (claimed.length === 0) return null;
  return { claimed, waiting: await loadWaiting(services, claimed), lease };
}

async function sendBatch(services: Services, batch: Batch, result: SweepResult): Promise<void> {
  const done: Outcome[] = [];
  const mails: MailMessage[] = [];
  await forEachLimited(batch.claimed, PARALLEL_SENDS, async (row) => {
    const messages = batch.waiting.get(keyOf(row)) ?? [];
    const newest = messages.at(-1);
    if (!newest || row.recipientEmail === null) {
      result.settled += 1;
      done.push({ clientId: row.clientId, recipientUserId: row.recipientUserId, notifiedSeq: 0 });
      return;
    }
    try {
      mails.push(await mailFor(services, row, row.recipientEmail, messages));
      result.sent += 1;
      done.push({
        clientId: row.clientId,
        recipientUserId: row.recipientUserId,
        notifiedSeq: newest.seq,
      });
    } catch (error) {
      result.failed += 1;
      await recordFailure(services, row, batch.lease, error);
    }
  });
  // The mails and the rows' new marks commit together: each email is written exactly once.
  await services.db.transaction(async (trx) => {
    for (const mail of mails) await services.outbox.enqueue(trx, mail, "unanswered-messages");
    await recordOutcomes(trx, done, batch.lease);
  });
}

/** Takes up to `limit` due rows for this instance (see the module comment). */
export async function claimDue(
  services: Pick<Services, "db">,
  now: Date,
  lease: Date,
  limit: number,
): Promise<ClaimedRow[]> {
  const claimed: { rows: ClaimedRow[] } = await services.db.raw(
    `with due as (
       select client_id, recipient_user_id from notification_states
        where due_at <= ?
          -- A deleted client's (issue 28) wait, unclaimed, until it is restored or purged.
          and not exists (select 1 from clients d
                           where d.id = notification_states.client_id and d.deleted_at is not null)
        order by due_at limit ? for update skip locked)
     update notification_states ns set due_at = ?
       from due join clients c on c.id = due.client_id join users o on o.id = c.owner_id
       left join ${notificationRecipients("due.client_id")} r
         on r.user_id = due.recipient_user_id
       left join users ru on ru.id = due.recipient_user_id
      where ns.client_id = due.client_id and ns.recipient_user_id = due.recipient_user_id
     returning ns.client_id as "clientId", ns.recipient_role as "recipientRole",
       ns.recipient_user_id as "recipientUserId",
       greatest(ns.last_read_seq, ns.last_notified_seq) as "afterSeq", ns.attempts,
       c.name as "clientName", r.email as "recipientEmail", r.name as "recipientName",
       r.delay_minutes as "recipientDelay",
       ${recipientLanguageSql("ru", "c", "o")} as "recipientLanguage",
       o.full_name as "fullName", o.company_name as "companyName", o.account_tier as "accountTier",
       o.company_logo as "companyLogo", o.primary_color as "primaryColor",
       o.background_color as "backgroundColor", o.text_color as "textColor"`,
    [now, limit, lease],
  );
  return claimed.rows.map((row) => ({ ...row, afterSeq: Number(row.afterSeq) }));
}

/**
 * For every claimed row, the messages that wait for its person (past their read and notified
 * marks and their side's last answer): the newest QUOTED_MESSAGES, oldest first, each with the
 * total count. One query for the batch.
 */
async function loadWaiting(
  services: Services,
  claimed: ClaimedRow[],
): Promise<Map<string, WaitingRow[]>> {
  const wanted = claimed.map((row) => ({
    client_id: row.clientId,
    recipient_user_id: row.recipientUserId,
    recipient_role: row.recipientRole,
    after_seq: row.afterSeq,
  }));
  const found: { rows: WaitingRow[] } = await services.db.raw(
    `select w.client_id as "clientId", w.recipient_user_id as "recipientUserId",
            x.id, x.seq, x.content, x.file_name as "fileName", x.awaits_decision as "awaitsDecision", x.total
       from json_to_recordset(?::json)
         as w(client_id uuid, recipient_user_id uuid, recipient_role text, after_seq bigint)
       cross join lateral (
         select m.id, m.seq, m.content, f.original_name as file_name,
                (m.sender_role = 'owner' and m.requires_feedback and m.feedback_status = 'pending'
                  and f.id is not null
                  -- Rule "everyone" (issue 27): only a person still asked gets the buttons.
                  and (m.approval_rule = 'any' or exists (
                    select 1 from approval_decisions ad
                     where ad.message_id = m.id and ad.user_id = w.recipient_user_id
                       and ad.status = 'pending'))) as awaits_decision,
                count(*) over () as total
           from messages m left join files f on f.id = m.file_id
          where m.client_id = w.client_id
            and ${waitingCondition("w.client_id", "w.recipient_role", "w.after_seq")}
          order by m.seq desc limit ?) x
      order by x.seq`,
    [JSON.stringify(wanted), QUOTED_MESSAGES],
  );
  const byKey = new Map<string, WaitingRow[]>();
  for (const row of found.rows) {
    const list = byKey.get(keyOf(row)) ?? [];
    list.push({ ...row, seq: Number(row.seq), total: Number(row.total) });
    byKey.set(keyOf(row), list);
  }
  return byKey;
}

async function mailFor(services: Services, row: ClaimedRow, to: string, messages: WaitingRow[]) {
  const { appUrl } = services.config;
  const toOwner = row.recipientRole === "owner";
  const ownerName = ownerDisplayName(row);
  // The client's files that wait for a decision get their Approve and Needs Work links.
  const deciding = toOwner ? [] : messages.filter((m) => m.awaitsDecision).map((m) => m.id);
  const links =
    deciding.length > 0
      ? await issueFeedbackLinks(
          services.db,
          appUrl,
          services.clock.now(),
          row.recipientUserId,
          deciding,
        )
      : new Map<string, DecisionLinks>();
  const marks = await openMarksOf(services.db, deciding);
  return unansweredMessagesMail({
    to,
    language: firstLanguage(row.recipientLanguage),
    recipientRole: row.recipientRole,
    recipientName: row.recipientName ?? "",
    senderName: toOwner ? row.clientName : ownerName,
    messages: messages.map((m) => ({
      ...m,
      decisionLinks: links.get(m.id),
      openMarks: marks.get(m.id),
    })),
    total: messages[0]?.total ?? messages.length,
    delayMinutes: row.recipientDelay ?? 0,
    conversationUrl: conversationUrl(appUrl, row.recipientRole, row.clientId),
    settingsUrl: toOwner
      ? `${appUrl}/?settings=notifications`
      : `${appUrl}/client/${row.clientId}?tab=settings`,
    // Reply by email (server/inbound): an address of this person and conversation, so that a
    // team member's reply posts as them.
    replyTo: await replyToFor(services, row.recipientUserId, row.clientId),
    // The owner's own mail keeps the product's look; their clients see the agency's.
    branding: toOwner
      ? { attachments: [] }
      : await brandingFor(services.storage, withFeatures(services.config, row), (error) =>
          services.logger.warn({ err: error, clientId: row.clientId }, "owner logo unreadable"),
        ),
  });
}

/** Written to the outbox (or nothing to send): one update for the batch. */
async function recordOutcomes(trx: Knex.Transaction, done: Outcome[], lease: Date): Promise<void> {
  if (done.length === 0) return;
  const rows = done.map((outcome) => ({
    client_id: outcome.clientId,
    recipient_user_id: outcome.recipientUserId,
    notified_seq: outcome.notifiedSeq,
  }));
  await trx.raw(
    `update notification_states ns
        set last_notified_seq = greatest(ns.last_notified_seq, v.notified_seq),
            due_at = case when ns.due_at = ? then null else ns.due_at end,
            attempts = 0, last_error = null
       from json_to_recordset(?::json) as v(client_id uuid, recipient_user_id uuid, notified_seq bigint)
      where ns.client_id = v.client_id and ns.recipient_user_id = v.recipient_user_id`,
    [lease, JSON.stringify(rows)],
  );
}

async function recordFailure(
  services: Services,
  row: ClaimedRow,
  lease: Date,
  error: unknown,
): Promise<void> {
  const attempt = row.attempts + 1;
  const message = error instanceof Error ? error.message : String(error);
  const givingUp = attempt >= MAX_ATTEMPTS;
  const retryAt = givingUp
    ? null
    : new Date(services.clock.now().getTime() + RETRY_MINUTES[attempt - 1]! * 60_000);
  const context = {
    err: error,
    clientId: row.clientId,
    recipientRole: row.recipientRole,
    recipientUserId: row.recipientUserId,
    attempt,
  };
  if (givingUp) {
    services.logger.error(
      context,
      `unanswered-messages email failed ${attempt} times: giving up until the next message`,
    );
  } else {
    services.logger.warn({ ...context, retryAt }, "unanswered-messages email failed; will retry");
  }
  await services.db.raw(
    `update notification_states
        set attempts = ?, last_error = ?,
            due_at = case when due_at = ? then cast(? as timestamptz) else due_at end
      where client_id = ? and recipient_user_id = ?`,
    [attempt, message.slice(0, 1000), lease, retryAt, row.clientId, row.recipientUserId],
  );
}
