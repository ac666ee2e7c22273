import type { Language } from "../../shared/i18n/languages";
import { translatorFor } from "../i18n/translator";
import { renderMail } from "./layout";
import type { MailMessage } from "./mail-message";

export function verificationMail(
  to: string,
  code: string,
  appUrl: string,
  language: Language,
): MailMessage {
  const t = translatorFor(language, "emails");
  return {
    to,
    subject: t("{{code}} is your ClientDesk verification code", { code }),
    devHint: `verification code ${code}`,
    ...renderMail({
      heading: t("Verify your email"),
      paragraphs: [
        t(
          "Enter this code to finish setting up your ClientDesk account. It expires in 10 minutes.",
        ),
      ],
      code,
      action: {
        label: t("Open ClientDesk"),
        url: `${appUrl}/verify-email?email=${encodeURIComponent(to)}`,
      },
      footer: t(
        "You received this because someone signed up for ClientDesk with this address. If it was not you, ignore this email.",
      ),
    }),
  };
}

export function alreadyRegisteredMail(to: string, appUrl: string, language: Language): MailMessage {
  const t = translatorFor(language, "emails");
  return {
    to,
    subject: t("Someone tried to sign up with your email"),
    devHint: "already registered",
    ...renderMail({
      heading: t("You already have an account"),
      paragraphs: [
        t(
          "Someone tried to create a ClientDesk account with this email address, which already has one.",
        ),
        t("If it was you, sign in instead, or reset your password if you have forgotten it."),
      ],
      action: { label: t("Sign in"), url: `${appUrl}/auth` },
      footer: t(
        "You received this because of a sign-up attempt with this address. If it was not you, no action is needed.",
      ),
    }),
  };
}

export function passwordResetMail(
  to: string,
  code: string,
  appUrl: string,
  language: Language,
): MailMessage {
  const t = translatorFor(language, "emails");
  return {
    to,
    subject: t("{{code}} is your ClientDesk password reset code", { code }),
    devHint: `reset code ${code}`,
    ...renderMail({
      heading: t("Reset your password"),
      paragraphs: [t("Enter this code to choose a new password. It expires in 15 minutes.")],
      code,
      action: { label: t("Reset password"), url: `${appUrl}/reset-password` },
      footer: t(
        "You received this because a password reset was requested for this address. If it was not you, ignore this email: your password stays the same.",
      ),
    }),
  };
}

export function accountDeletedMail(
  to: string,
  fullName: string,
  appUrl: string,
  language: Language,
): MailMessage {
  const t = translatorFor(language, "emails");
  return {
    to,
    subject: t("Your ClientDesk account has been deleted"),
    devHint: "account deleted",
    ...renderMail({
      heading: t("Your account has been deleted"),
      paragraphs: [
        t(
          "Hello {{fullName}}, your ClientDesk account and everything in it have been deleted as you asked: your clients' conversations, messages and files, your images and your sessions.",
          { fullName },
        ),
        t("Any paid subscription was cancelled at once; there will be no further charges."),
        t("This cannot be undone. You are welcome to create a new account at any time."),
      ],
      action: { label: t("Open ClientDesk"), url: `${appUrl}/auth` },
      footer: t(
        "You received this because the account of this address was deleted from its settings. If it was not you, reply to this email at once.",
      ),
    }),
  };
}
