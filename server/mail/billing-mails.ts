import { TIER_CONFIG, type Tier } from "../../shared/tiers";
import { renderMail } from "./layout";
import type { MailMessage } from "./mail-message";

/** Mails carry no time zone of their reader: times are written out in UTC. */
export function utcDateTime(date: Date): string {
  return `${date.toLocaleString("en-US", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  })} UTC`;
}

interface PaymentMailFields {
  to: string;
  fullName: string;
  tier: Tier;
  graceEnd: Date;
  appUrl: string;
}

/** Where the owner updates their card: /pricing opens on the failed-payment notice and its button. */
const updatePaymentUrl = (appUrl: string) => `${appUrl}/pricing`;

export function paymentFailedMail(fields: PaymentMailFields): MailMessage {
  const plan = TIER_CONFIG[fields.tier].name;
  const deadline = utcDateTime(fields.graceEnd);
  return {
    to: fields.to,
    subject: `Your ClientDesk payment failed: update it by ${deadline}`,
    ...renderMail({
      heading: "Your payment failed",
      paragraphs: [
        `Hello ${fields.fullName}, we could not take the payment for your ClientDesk ${plan} plan.`,
        `Update your payment method by ${deadline} to keep your ${plan} plan. After that, your account moves to the Free plan: your clients and conversations stay, the ${plan} features stop.`,
      ],
      action: { label: "Update payment method", url: updatePaymentUrl(fields.appUrl) },
      footer:
        "You received this because a renewal of your ClientDesk subscription failed. We will remind you once more 4 hours before the downgrade.",
    }),
  };
}

export function paymentReminderMail(fields: PaymentMailFields): MailMessage {
  const plan = TIER_CONFIG[fields.tier].name;
  const deadline = utcDateTime(fields.graceEnd);
  return {
    to: fields.to,
    subject: `4 hours left to keep your ClientDesk ${plan} plan`,
    ...renderMail({
      heading: "Your payment still has not gone through",
      paragraphs: [
        `Hello ${fields.fullName}, the payment for your ClientDesk ${plan} plan is still missing.`,
        `Update your payment method by ${deadline} to keep your ${plan} plan; after that, your account moves to the Free plan.`,
      ],
      action: { label: "Update payment method", url: updatePaymentUrl(fields.appUrl) },
      footer: "You received this because a renewal of your ClientDesk subscription failed.",
    }),
  };
}

export interface ReceivedPayment {
  to: string;
  fullName: string;
  tier: Tier;
  period: string | null;
  paidAt: Date;
  /** From the invoice when the provider said (cents and ISO currency). */
  amountCents: number | null;
  currency: string | null;
  invoiceNumber: string | null;
  appUrl: string;
}

function formatAmount(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: currency.toUpperCase(),
    }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

export function paymentReceivedMail(payment: ReceivedPayment): MailMessage {
  const plan = TIER_CONFIG[payment.tier].name;
  const details = [
    `Plan: ${plan}${payment.period ? ` (${payment.period})` : ""}`,
    ...(payment.amountCents !== null && payment.currency
      ? [`Amount paid: ${formatAmount(payment.amountCents, payment.currency)}`]
      : []),
    `Date: ${utcDateTime(payment.paidAt)}`,
    ...(payment.invoiceNumber ? [`Invoice: ${payment.invoiceNumber}`] : []),
  ];
  return {
    to: payment.to,
    subject: `Payment received: your ClientDesk ${plan} plan continues`,
    ...renderMail({
      heading: "Payment received",
      paragraphs: [
        `Hello ${payment.fullName}, thank you: your payment went through and your ${plan} plan continues. Nothing is downgraded.`,
        ...details,
      ],
      action: { label: "Open ClientDesk", url: `${payment.appUrl}/` },
      footer:
        "You received this because a failed payment for your ClientDesk subscription has now been paid.",
    }),
  };
}
