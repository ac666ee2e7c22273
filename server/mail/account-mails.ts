import type { MailMessage } from "./mail-message";
import { renderMail } from "./layout";

export function verificationMail(to: string, code: string, appUrl: string): MailMessage {
  return {
    to,
    subject: `${code} is your ClientDesk verification code`,
    devHint: `verification code ${code}`,
    ...renderMail({
      heading: "Verify your email",
      paragraphs: [
        "Enter this code to finish setting up your ClientDesk account. It expires in 10 minutes.",
      ],
      code,
      action: {
        label: "Open ClientDesk",
        url: `${appUrl}/verify-email?email=${encodeURIComponent(to)}`,
      },
      footer:
        "You received this because someone signed up for ClientDesk with this address. If it was not you, ignore this email.",
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
      footer:
        "You received this because of a sign-up attempt with this address. If it was not you, no action is needed.",
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
      footer:
        "You received this because a password reset was requested for this address. If it was not you, ignore this email: your password stays the same.",
    }),
  };
}

export function accountDeletedMail(to: string, fullName: string, appUrl: string): MailMessage {
  return {
    to,
    subject: "Your ClientDesk account has been deleted",
    devHint: "account deleted",
    ...renderMail({
      heading: "Your account has been deleted",
      paragraphs: [
        `Hello ${fullName}, your ClientDesk account and everything in it have been deleted as you asked: your clients' conversations, messages and files, your images and your sessions.`,
        "Any paid subscription was cancelled at once; there will be no further charges.",
        "This cannot be undone. You are welcome to create a new account at any time.",
      ],
      action: { label: "Open ClientDesk", url: `${appUrl}/auth` },
      footer:
        "You received this because the account of this address was deleted from its settings. If it was not you, reply to this email at once.",
    }),
  };
}
