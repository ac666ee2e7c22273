import type { Knex } from "knex";
import type { Services } from "../context";
import { recipientFrom } from "../i18n/recipient-language";
import { paymentFailedMail, paymentReceivedMail } from "../mail/billing-mails";
import { User } from "../models";
import type { PaymentChange } from "./billing-state";

/**
 * Writes the mail about a payment's turn to the outbox, in the transaction that applied it:
 * a failure at once with the downgrade time and the way to update the card, a recovery as a
 * receipt. (The reminder 4 hours before the downgrade: remind-failed-payments.ts.)
 */
export async function mailPaymentChange(
  services: Services,
  trx: Knex.Transaction,
  change: PaymentChange,
  at: Date,
): Promise<void> {
  const user = await User.query(trx).findById(change.userId);
  if (!user) return;
  const { appUrl } = services.config;
  const fields = {
    to: user.email,
    // Billing mails go to the workspace's owner, whose workspace is their own.
    recipient: recipientFrom(user, null, user),
    fullName: user.fullName,
    tier: user.accountTier,
    appUrl,
  };
  if (change.kind === "failed") {
    await services.outbox.enqueue(
      trx,
      paymentFailedMail({ ...fields, graceEnd: change.graceEnd }),
      "payment-failed",
    );
    return;
  }
  const invoice = change.invoice;
  await services.outbox.enqueue(
    trx,
    paymentReceivedMail({
      ...fields,
      period: user.billingPeriod,
      paidAt: at,
      amountCents: invoice?.amount_paid ?? null,
      currency: invoice?.currency ?? null,
      invoiceNumber: invoice?.number ?? null,
    }),
    "payment-received",
  );
}
