import { mkdirSync } from "node:fs";
import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "../logger";
import { writeDevMail } from "./dev-mailbox";
import type { MailMessage } from "./mail-message";
import { outgoingMail } from "./outgoing-headers";

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  /** Where the dev mailbox keeps messages when there is no SMTP server. */
  mailboxDir: string;
  logger: Logger;
  /** Production never has a dev mailbox: its log lines carry codes and sign-in links. */
  production?: boolean;
}

/** SMTP when SMTP_URL is set; otherwise (never in production) a dev mailbox of .eml files under DATA_DIR. */
export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) return new SmtpMailer(options);
  if (options.production) throw new Error("SMTP_URL is required in production");
  return new DevMailbox(options);
}

class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(private readonly options: MailerOptions) {
    // Bounded waits: a hung server fails the attempt (and the sweep retries it later) well
    // within the notification sweep's claim on the row.
    this.transport = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
  }

  async send(message: MailMessage) {
    await this.transport.sendMail({ from: this.options.from, ...outgoingMail(message) });
    // Not the subject: some hold a code (e.g. "123456 is your ClientDesk verification code").
    this.options.logger.info({ to: message.to }, "mail sent");
  }

  close() {
    this.transport.close();
  }
}

class DevMailbox implements Mailer {
  private readonly transport = nodemailer.createTransport({ streamTransport: true, buffer: true });

  constructor(private readonly options: MailerOptions) {
    mkdirSync(options.mailboxDir, { recursive: true });
  }

  async send(message: MailMessage) {
    const { devHint } = message;
    const info = await this.transport.sendMail({
      from: this.options.from,
      ...outgoingMail(message),
    });
    const file = writeDevMail(this.options.mailboxDir, new Date(), info.message as Buffer, message);
    this.options.logger.info(
      { to: message.to, subject: message.subject, file, hint: devHint },
      `dev mailbox: "${message.subject}" to ${message.to}${devHint ? ` (${devHint})` : ""}`,
    );
  }

  close() {}
}
