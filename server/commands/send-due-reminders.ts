import type { Language } from "../../shared/i18n/languages";
import { withFeatures } from "../billing/feature-tier";
import type { Services } from "../context";
import { conversationUrl } from "../conversation-url";
import { firstLanguage, recipientLanguageSql } from "../i18n/recipient-language";
import { type BrandingOwner, brandingFor } from "../mail/branding";
import { ownerDisplayName } from "../mail/client-mails";
import { type DueReminderKind, dueReminderMail } from "../mail/due-reminder-mails";
import { openMarksOf } from "../queries/open-marks";
import { issueFeedbackLinks } from "./issue-feedback-links";
import { notificationRecipients } from "./notification-recipients";

/**
 * The due-date reminders (issue 27, point 4). While a file's version waits for a decision and
 * its thread has a due date, each of the client's people who joined (notification-recipients.ts)
 * gets "due tomorrow" at 09:00 the day before, and "due today" at 09:00 on the day, in their
 * own time zone (users.time_zone, else UTC). A reminder whose hour passed while no server ran
 * goes out at the next pass, as long as it still makes sense: "due tomorrow" until the due day
 * begins, "due today" until it ends; never once the version is decided.
 *
 * Once: each reminder is a `due_reminders` row (version, person, kind) written in the
 * transaction of its outbox mail, under a lock of the version's row taken with SKIP LOCKED, so a
 * second instance at the same version moves on, and one that comes later finds the rows (and a
 * decision taken meanwhile, which locks the same row).
 */

/** How many reminders one pass looks at; the rest wait for the next (a minute later). */
const BATCH_SIZE = 500;

interface DueReminder extends BrandingOwner {
  messageId: string;
  clientId: string;
  dueDate: string;
  fileName: string;
  userId: string;
  email: string;
  name: string;
  /** The person's language (recipient-language.ts), read with the batch. */
  language: Language;
  kind: DueReminderKind;
}

export interface DueReminderResult {
  /** Reminders whose hour had come. */
  due: number;
  /** Written to the outbox by this pass. */
  sent: number;
}

export async function sendDueReminders(services: Services): Promise<DueReminderResult> {
  const now = services.clock.now();
  const due = await findDueReminders(services, now);
  const byMessage = new Map<string, DueReminder[]>();
  for (const reminder of due) {
    const list = byMessage.get(reminder.messageId) ?? [];
    list.push(reminder);
    byMessage.set(reminder.messageId, list);
  }
  let sent = 0;
  for (const reminders of byMessage.values()) {
    try {
      sent += await sendForVersion(services, now, reminders);
    } catch (error) {
      // Nothing of this version was written: the next pass tries again.
      services.logger.error(
        { err: error, messageId: reminders[0]?.messageId },
        "due-date reminders failed; will retry",
      );
    }
  }
  return { due: due.length, sent };
}

/** The reminders whose 09:00 has come for their person and that nobody sent yet. */
async function findDueReminders(services: Services, now: Date): Promise<DueReminder[]> {
  // Every zone's date is within a day of UTC's: due dates further off cannot be due now.
  const utcDate = now.toISOString().slice(0, 10);
  const found: { rows: DueReminder[] } = await services.db.raw(
    `select v.id as "messageId", v.client_id as "clientId", d.due_date::text as "dueDate",
            f.original_name as "fileName", r.user_id as "userId", r.email, r.name, k.kind,
            o.full_name as "fullName", o.company_name as "companyName",
            o.account_tier as "accountTier", o.company_logo as "companyLogo",
            o.primary_color as "primaryColor", o.background_color as "backgroundColor",
            o.text_color as "textColor",
            ${recipientLanguageSql("u", "c", "o")} as language
       from file_due_dates d
       join messages v on v.id = d.thread_id or v.version_of = d.thread_id
       join files f on f.id = v.file_id
       join clients c on c.id = v.client_id and c.deleted_at is null
       join users o on o.id = c.owner_id
       cross join ${notificationRecipients("v.client_id")} r
       join users u on u.id = r.user_id
       cross join lateral (values ('due_tomorrow', d.due_date - 1, d.due_date),
                                  ('due_today', d.due_date, d.due_date + 1))
         as k(kind, send_on, stale_on)
      where d.due_date between cast(? as date) - 2 and cast(? as date) + 2
        and r.recipient_role = 'client'
        and v.requires_feedback and v.feedback_status = 'pending' and v.visibility = 'client'
        and (k.send_on + time '09:00') at time zone coalesce(u.time_zone, 'UTC')
              <= cast(? as timestamptz)
        and cast(? as timestamptz)
              < cast(k.stale_on as timestamp) at time zone coalesce(u.time_zone, 'UTC')
        and not exists (select 1 from due_reminders x
                         where x.message_id = v.id and x.user_id = r.user_id and x.kind = k.kind)
      order by v.id, r.user_id
      limit ?`,
    [utcDate, utcDate, now, now, BATCH_SIZE],
  );
  return found.rows;
}

/**
 * One version's reminders in one transaction: its row locked (skipped when another instance
 * holds it), still pending with the same due date; the rows nobody wrote yet are written with
 * their mails. Answers how many went to the outbox.
 */
async function sendForVersion(
  services: Services,
  now: Date,
  reminders: DueReminder[],
): Promise<number> {
  const first = reminders[0]!;
  const { appUrl } = services.config;
  const branding = await brandingFor(
    services.storage,
    withFeatures(services.config, first),
    (error) =>
      services.logger.warn({ err: error, clientId: first.clientId }, "owner logo unreadable"),
  );
  return services.db.transaction(async (trx) => {
    const locked: { rows: unknown[] } = await trx.raw(
      `select m.id from messages m
         join file_due_dates d on d.thread_id = coalesce(m.version_of, m.id)
        where m.id = ? and m.feedback_status = 'pending' and d.due_date = cast(? as date)
        for update of m skip locked`,
      [first.messageId, first.dueDate],
    );
    if (locked.rows.length === 0) return 0;
    const openMarks = (await openMarksOf(trx, [first.messageId])).get(first.messageId);
    const taken: { userId: string; kind: DueReminderKind }[] = await trx("dueReminders")
      .insert(
        reminders.map((reminder) => ({
          messageId: reminder.messageId,
          userId: reminder.userId,
          kind: reminder.kind,
          sentAt: now,
        })),
      )
      .onConflict(["messageId", "userId", "kind"])
      .ignore()
      .returning(["userId", "kind"]);
    for (const row of taken) {
      const reminder = reminders.find((r) => r.userId === row.userId && r.kind === row.kind)!;
      const links = await issueFeedbackLinks(trx, appUrl, now, reminder.userId, [
        reminder.messageId,
      ]);
      const mail = dueReminderMail({
        to: reminder.email,
        language: firstLanguage(reminder.language),
        kind: reminder.kind,
        recipientName: reminder.name,
        senderName: ownerDisplayName(reminder),
        fileName: reminder.fileName,
        dueDate: reminder.dueDate,
        decisionLinks: links.get(reminder.messageId)!,
        openMarks,
        conversationUrl: conversationUrl(appUrl, "client", reminder.clientId),
        branding,
      });
      await services.outbox.enqueue(trx, mail, "due-reminder");
    }
    return taken.length;
  });
}
