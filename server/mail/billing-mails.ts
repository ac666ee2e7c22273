import { TIER_CONFIG, type Tier } from "../../shared/tiers";
import type { Recipient } from "../i18n/recipient-language";
import { translatorFor } from "../i18n/translator";
import { renderMail } from "./layout";
import { mailFormats } from "./mail-formats";
import type { MailMessage } from "./mail-message";

interface PaymentMailFields {
  to: string;
  /** The owner's language, and their time zone for the downgrade time. */
  recipient: Recipient;
  fullName: string;
  tier: Tier;
  graceEnd: Date;
  appUrl: string;
}

/** Where the owner updates their card: /pricing opens on the failed-payment notice and its button. */
const updatePaymentUrl = (appUrl: string) => `${appUrl}/pricing`;

export function paymentFailedMail(fields: PaymentMailFields): MailMessage {
  const { language, timeZone } = fields.recipient;
  const t = translatorFor(language, "emails");
  const plan = TIER_CONFIG[fields.tier].name;
  const deadline = mailFormats(language, timeZone, t).dateTime(fields.graceEnd);
  return {
    to: fields.to,
    subject: t("Your ClientDesk payment failed: update it by {{deadline}}", { deadline }),
    ...renderMail({
      heading: t("Your payment failed"),
      paragraphs: [
        t("Hello {{fullName}}, we could not take the payment for your ClientDesk {{plan}} plan.", {
          fullName: fields.fullName,
          plan,
        }),
        t(
          "Update your payment method by {{deadline}} to keep your {{plan}} plan. After that, your account moves to the Free plan: your clients and conversations stay, the {{plan}} features stop.",
          { deadline, plan },
        ),
      ],
      action: { label: t("Update payment method"), url: updatePaymentUrl(fields.appUrl) },
      footer: t(
        "You received this because a renewal of your ClientDesk subscription failed. We will remind you once more 4 hours before the downgrade.",
      ),
    }),
  };
}

export function paymentReminderMail(fields: PaymentMailFields): MailMessage {
  const { language, timeZone } = fields.recipient;
  const t = translatorFor(language, "emails");
  const plan = TIER_CONFIG[fields.tier].name;
  const deadline = mailFormats(language, timeZone, t).dateTime(fields.graceEnd);
  return {
    to: fields.to,
    subject: t("4 hours left to keep your ClientDesk {{plan}} plan", { plan }),
    ...renderMail({
      heading: t("Your payment still has not gone through"),
      paragraphs: [
        t("Hello {{fullName}}, the payment for your ClientDesk {{plan}} plan is still missing.", {
          fullName: fields.fullName,
          plan,
        }),
        t(
          "Update your payment method by {{deadline}} to keep your {{plan}} plan; after that, your account moves to the Free plan.",
          { deadline, plan },
        ),
      ],
      action: { label: t("Update payment method"), url: updatePaymentUrl(fields.appUrl) },
      footer: t("You received this because a renewal of your ClientDesk subscription failed."),
    }),
  };
}

export interface ReceivedPayment {
  to: string;
  recipient: Recipient;
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

export function paymentReceivedMail(payment: ReceivedPayment): MailMessage {
  const { language, timeZone } = payment.recipient;
  const t = translatorFor(language, "emails");
  const formats = mailFormats(language, timeZone, t);
  const plan = TIER_CONFIG[payment.tier].name;
  const periodName =
    payment.period === "monthly"
      ? t("monthly")
      : payment.period === "annual"
        ? t("annual")
        : payment.period;
  const details = [
    periodName
      ? t("Plan: {{plan}} ({{period}})", { plan, period: periodName })
      : t("Plan: {{plan}}", { plan }),
    ...(payment.amountCents !== null && payment.currency
      ? [
          t("Amount paid: {{amount}}", {
            amount: formats.price(payment.amountCents, payment.currency),
          }),
        ]
      : []),
    t("Date: {{date}}", { date: formats.dateTime(payment.paidAt) }),
    ...(payment.invoiceNumber ? [t("Invoice: {{number}}", { number: payment.invoiceNumber })] : []),
  ];
  return {
    to: payment.to,
    subject: t("Payment received: your ClientDesk {{plan}} plan continues", { plan }),
    ...renderMail({
      heading: t("Payment received"),
      paragraphs: [
        t(
          "Hello {{fullName}}, thank you: your payment went through and your {{plan}} plan continues. Nothing is downgraded.",
          { fullName: payment.fullName, plan },
        ),
        ...details,
      ],
      action: { label: t("Open ClientDesk"), url: `${payment.appUrl}/` },
      footer: t(
        "You received this because a failed payment for your ClientDesk subscription has now been paid.",
      ),
    }),
  };
}
