import type { MailMessage } from "./mailer";
import { renderMail } from "./layout";

export function verificationMail(to: string, code: string, appUrl: string): MailMessage {
  return {
    to,
    subject: `${code} is your ClientDesk verification code`,
    devHint: `verification code ${code}`,
    ...renderMail({
      heading: "Verify your email",
      paragraphs: ["Enter this code to finish setting up your ClientDesk account. It expires in 10 minutes."],
      code,
      action: { label: "Open ClientDesk", url: `${appUrl}/verify-email?email=${encodeURIComponent(to)}` },
      footer: "You received this because someone signed up for ClientDesk with this address. If it was not you, ignore this email.",
    }),
  };
}

export function alreadyRegisteredMail(to: string, appUrl: string): MailMessage {
  return {
    to,
    subject: "Someone tried to sign up with your email",
    devHint: "already registered",
    ...renderMail({
      heading: "You already have an account",
      paragraphs: [
        "Someone tried to create a ClientDesk account with this email address, which already has one.",
        "If it was you, sign in instead, or reset your password if you have forgotten it.",
      ],
      action: { label: "Sign in", url: `${appUrl}/auth` },
      footer: "You received this because of a sign-up attempt with this address. If it was not you, no action is needed.",
    }),
  };
}

export function passwordResetMail(to: string, code: string, appUrl: string): MailMessage {
  return {
    to,
    subject: `${code} is your ClientDesk password reset code`,
    devHint: `reset code ${code}`,
    ...renderMail({
      heading: "Reset your password",
      paragraphs: ["Enter this code to choose a new password. It expires in 15 minutes."],
      code,
      action: { label: "Reset password", url: `${appUrl}/reset-password` },
      footer: "You received this because a password reset was requested for this address. If it was not you, ignore this email: your password stays the same.",
    }),
  };
}
