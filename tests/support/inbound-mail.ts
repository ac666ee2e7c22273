import nodemailer from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import { expect } from "vitest";
import type { TestClock } from "./clock";
import type { JoinedClient } from "./conversations";
import type { SignedInOwner } from "./factories";
import type { TestServer } from "./server";
import type { ReceivedMail } from "./smtp";

/**
 * Reply by email from the sender's side: the notification mail carrying a reply address, and
 * a real SMTP client (nodemailer) talking to the product's listener.
 */

/** The notification mail `to` gets once `from` wrote `content` and the delay passed. */
export async function notification(
  server: TestServer,
  from: SignedInOwner | JoinedClient,
  to: string,
  clientId: string,
  content: string,
): Promise<ReceivedMail> {
  const sent = await from.agent.post(`/api/clients/${clientId}/messages`, { content });
  expect(sent.status).toBe(201);
  (server.clock as TestClock).advanceMinutes(5);
  await server.jobs.runOnce("unanswered-messages");
  return server.smtp.waitFor(to, (mail) => mail.text.includes(content));
}

export function replyToOf(mail: ReceivedMail): string {
  const address = mail.parsed.replyTo?.value[0]?.address;
  if (!address) throw new Error(`no Reply-To on "${mail.subject}"`);
  return address;
}

/** Sends `message` to the SMTP listener on `port` of 127.0.0.1. */
export async function sendReply(port: number, message: Mail.Options) {
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: true,
  });
  try {
    return await transport.sendMail(message);
  } finally {
    transport.close();
  }
}

/** The SMTP error a refused reply ends with. */
export async function refusalOf(
  port: number,
  message: Mail.Options,
): Promise<{ responseCode: number; response: string }> {
  const error = await sendReply(port, message).then(
    () => null,
    (failure: { responseCode: number; response: string }) => failure,
  );
  if (!error) throw new Error("the reply was accepted");
  return error;
}

export interface OpenSmtpConnection {
  connection: SMTPConnection;
  /** Resolves when the connection has ended, whoever closed it. */
  ended: Promise<void>;
}

/**
 * An SMTP session held open after EHLO, as a client that sends nothing more; rejects with the
 * client's error when the server refuses it (e.g. a 421 greeting).
 */
export function openSmtpConnection(port: number, host = "127.0.0.1"): Promise<OpenSmtpConnection> {
  return new Promise((resolve, reject) => {
    const connection = new SMTPConnection({ host, port, ignoreTLS: true });
    const ended = new Promise<void>((done) => connection.once("end", () => done()));
    let settled = false;
    connection.on("error", (error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
    connection.connect((error) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve({ connection, ended });
    });
  });
}
