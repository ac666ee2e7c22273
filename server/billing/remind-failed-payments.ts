import type { Services } from "../context";
import { recipientFrom } from "../i18n/recipient-language";
import { paymentReminderMail } from "../mail/billing-mails";
import { User } from "../models";

/** How long before a failed payment's downgrade the owner is reminded. */
export const REMINDER_BEFORE_DOWNGRADE_MS = 4 * 60 * 60_000;
const BATCH = 100;

/**
 * Emails every owner whose grace period ends within REMINDER_BEFORE_DOWNGRADE_MS and who was
 * not yet reminded of that grace end. The reminder is written to the outbox in the transaction
 * that records it; rows are taken FOR UPDATE SKIP LOCKED, so no two instances remind one owner.
 */
export async function remindFailedPayments(services: Services): Promise<number> {
  let total = 0;
  for (;;) {
    const now = services.clock.now();
    const reminded = await services.db.transaction(async (trx) => {
      const due = await User.query(trx)
        .whereNotNull("paymentFailureGraceEnd")
        .where("paymentFailureGraceEnd", ">", now)
        .where(
          "paymentFailureGraceEnd",
          "<=",
          new Date(now.getTime() + REMINDER_BEFORE_DOWNGRADE_MS),
        )
        .where((query) =>
          query
            .whereNull("paymentReminderFor")
            .orWhereRaw("payment_reminder_for <> payment_failure_grace_end"),
        )
        .forUpdate()
        .skipLocked()
        .limit(BATCH);
      for (const user of due) {
        const graceEnd = user.paymentFailureGraceEnd as Date;
        await User.query(trx).findById(user.id).patch({ paymentReminderFor: graceEnd });
        await services.outbox.enqueue(
          trx,
          paymentReminderMail({
            to: user.email,
            recipient: recipientFrom(user, null, user),
            fullName: user.fullName,
            tier: user.accountTier,
            graceEnd,
            appUrl: services.config.appUrl,
          }),
          "payment-reminder",
        );
      }
      return due.length;
    });
    total += reminded;
    if (reminded < BATCH) return total;
  }
}
