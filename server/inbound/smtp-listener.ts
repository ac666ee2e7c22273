import type { AddressInfo } from "node:net";
import type { Readable } from "node:stream";
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from "smtp-server";
import { type InboundMailSettings, mailFromAddress } from "../config";
import type { Services } from "../context";
import { listen } from "../lifecycle/listen";
import { User } from "../models";
import { ConnectionsPerAddress, MAX_CONNECTIONS_PER_ADDRESS } from "./connections-per-address";
import { type ParsedReply, parseReply } from "./parse-reply";
import {
  claimMessageId,
  forgetMessageId,
  markMessageIdPosted,
  type ReplyAddress,
  ReplyAddresses,
} from "./reply-address";
import { isAuthenticatedSender } from "./sender-authentication";

/** A received mail larger than this is refused at DATA (552); the limit is announced in EHLO. */
export const MAX_INBOUND_BYTES = 25 * 1024 * 1024;

/** A client that sends nothing for this long while it owes a command or data is closed (421). */
export const INBOUND_IDLE_TIMEOUT_MS = 30_000;

/** What posting a reply did (commands/receive-email-reply.ts). */
export interface ReceivedReply {
  /** The messages posted: the text first (if any), then one per accepted file. */
  messageIds: string[];
  /** Attachments that were not posted, and why (the same words an upload would get). */
  skipped: { filename: string; reason: string }[];
}

/**
 * Posts an accepted reply as its person's messages (commands/receive-email-reply.ts, passed in
 * by index.ts): undefined when the person or conversation is gone or may no longer send there.
 */
export type PostReply = (
  services: Services,
  address: ReplyAddress,
  reply: Pick<ParsedReply, "text" | "attachments">,
) => Promise<ReceivedReply | undefined>;

export interface InboundSmtp {
  port: number;
  close(): Promise<void>;
}

/** An SMTP answer: the code, and the text after it (enhanced status code first). */
class SmtpAnswer extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

const refuse = {
  unknown: () => new SmtpAnswer(550, "5.1.1 No such reply address"),
  notThePerson: () =>
    new SmtpAnswer(
      550,
      "5.7.1 This reply address belongs to someone else: reply from the address the email went to",
    ),
  oneFrom: () => new SmtpAnswer(550, "5.7.1 The From header must name exactly one address"),
  unauthenticated: () =>
    new SmtpAnswer(
      550,
      "5.7.1 The sender's domain did not authenticate this mail (DMARC or DKIM): reply from your usual mail account",
    ),
  oneRecipient: () => new SmtpAnswer(452, "4.5.3 One reply address per message"),
  tooLarge: () =>
    new SmtpAnswer(552, `5.3.4 Message too large: at most ${MAX_INBOUND_BYTES / 1024 / 1024} MB`),
  gone: () => new SmtpAnswer(550, "5.1.1 This conversation is no longer available"),
  nothing: (why: string) =>
    new SmtpAnswer(550, `5.6.0 Nothing in this email could be posted: ${why}`),
  later: () => new SmtpAnswer(451, "4.3.0 Could not take the message now; try again later"),
};

/** What RCPT TO found, kept for DATA. */
interface Recipient {
  address: ReplyAddress;
  personEmail: string;
  /** Accepted but not posted (a bounce, the product's own mail): why. */
  drop: string | null;
}

/**
 * The original sender of an envelope address rewritten by a forwarder with SRS
 * (SRS0=hash=tt=domain=local@forwarder -> local@domain); null for SRS1 (forwarded twice),
 * whose original the header From check at DATA covers; the address itself otherwise.
 */
export function envelopeSender(address: string): string | null {
  const lower = address.toLowerCase();
  const srs0 = /^srs0[=+-][^=]+=[^=]+=([^=]+)=(.+)@[^@]+$/.exec(lower);
  if (srs0) return `${srs0[2]}@${srs0[1]}`;
  if (/^srs1[=+-]/.test(lower)) return null;
  return lower;
}

/**
 * The product's own SMTP listener for replies to its mails (README "Reply by email"). It
 * sits behind the mail relay that receives for INBOUND_EMAIL_DOMAIN, which checks SPF, DKIM
 * and DMARC and says so in Authentication-Results; so no AUTH and no STARTTLS here. One
 * recipient per message, which must be a live reply address, from its person (envelope at
 * RCPT; at DATA one From header with one address, the person's, and with `authservId` the
 * relay's verdict that the From domain passed DMARC or aligned DKIM: 550 otherwise).
 * Auto-replies, bounces, duplicates and the product's own mails are accepted and dropped, so
 * that no sender retries them and nothing loops. At most MAX_CONNECTIONS_PER_ADDRESS
 * connections per client address, and idle ones close after `idleTimeoutMs`, so that no
 * sender can hold every place.
 */
export async function startInboundSmtp(
  services: Services,
  options: InboundMailSettings & { idleTimeoutMs?: number },
  postReply: PostReply,
): Promise<InboundSmtp> {
  const { logger } = services;
  const addresses = new ReplyAddresses(services.db, services.config.sessionSecret, options.domain);
  const productAddress = mailFromAddress(services.config.mailFrom).toLowerCase();
  const recipients = new Map<string, Recipient>();
  const connections = new ConnectionsPerAddress();

  const onRcptTo = async (address: SMTPServerAddress, session: SMTPServerSession) => {
    if (session.envelope.rcptTo.length > 0) throw refuse.oneRecipient();
    const resolved = await addresses.resolve(address.address);
    if (!resolved) throw refuse.unknown();
    const person = await User.query(services.db).select("email").findById(resolved.userId);
    if (!person) throw refuse.unknown();
    const personEmail = person.email.toLowerCase();
    const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
    let drop: string | null = null;
    if (from === "") drop = "bounce or automatic answer (empty envelope sender)";
    else if (from.toLowerCase() === productAddress) drop = "the product's own mail";
    else {
      const sender = envelopeSender(from);
      if (sender !== null && sender !== personEmail) throw refuse.notThePerson();
    }
    recipients.set(session.id, { address: resolved, personEmail, drop });
  };

  const onData = async (
    stream: Readable & { sizeExceeded?: boolean },
    session: SMTPServerSession,
  ) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream) {
      // Past the limit nothing more is kept; the rest is read to the end and refused.
      if (size <= MAX_INBOUND_BYTES) chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    if (stream.sizeExceeded || size > MAX_INBOUND_BYTES) throw refuse.tooLarge();
    const recipient = recipients.get(session.id);
    if (!recipient) throw refuse.unknown();
    const context = { clientId: recipient.address.clientId, userId: recipient.address.userId };
    if (recipient.drop) {
      logger.info({ ...context, reason: recipient.drop }, "reply by email dropped");
      return;
    }
    const reply = await parseReply(Buffer.concat(chunks));
    if (reply.from === productAddress) {
      logger.info({ ...context, reason: "the product's own mail" }, "reply by email dropped");
      return;
    }
    if (reply.from === null) throw refuse.oneFrom();
    if (reply.from !== recipient.personEmail) throw refuse.notThePerson();
    if (reply.automatic) {
      logger.info({ ...context, reason: reply.automatic }, "reply by email dropped");
      return;
    }
    if (
      options.authservId &&
      !isAuthenticatedSender(reply.authenticationResults, options.authservId, reply.from)
    ) {
      logger.info(context, "reply by email refused: the sender is not authenticated");
      throw refuse.unauthenticated();
    }
    // The Message-ID is claimed before posting, and marked posted after: a mail delivered
    // twice posts once; a claim left unposted (a crash, or a release that failed too) holds
    // the retries off (451) for the lease, then the next retry takes it over and posts.
    const messageId = reply.messageId;
    const claim = messageId
      ? await claimMessageId(services.db, recipient.address.id, messageId, services.clock.now())
      : null;
    if (claim?.kind === "posted") {
      logger.info({ ...context, reason: "already received" }, "reply by email dropped");
      return;
    }
    if (claim?.kind === "in_progress") {
      logger.info(context, "reply by email already being posted: refused for now");
      throw refuse.later();
    }
    /** Nothing was posted: a retry of this mail is considered afresh (the answer stands). */
    const release = async () => {
      if (!messageId || !claim) return;
      await forgetMessageId(services.db, recipient.address.id, messageId, claim.claimedAt).catch(
        (error) =>
          logger.error({ ...context, err: error }, "reply by email: Message-ID not released"),
      );
    };
    let received: ReceivedReply | undefined;
    try {
      received = await postReply(services, recipient.address, reply);
    } catch (error) {
      logger.error({ ...context, err: error }, "reply by email could not be posted");
      await release();
      throw refuse.later();
    }
    if (!received || received.messageIds.length === 0) {
      await release();
      if (!received) throw refuse.gone();
      const first = received.skipped[0];
      throw refuse.nothing(first ? `${first.filename}: ${first.reason}` : "no new text");
    }
    if (messageId) {
      // Posted: 250 even if this fails (a 451 would have the relay post it again); only a
      // copy delivered after the lease could then post twice.
      await markMessageIdPosted(
        services.db,
        recipient.address.id,
        messageId,
        services.clock.now(),
      ).catch((error) =>
        logger.error({ ...context, err: error }, "reply by email: Message-ID not marked posted"),
      );
    }
    logger.info(
      { ...context, messages: received.messageIds.length, skipped: received.skipped },
      "reply by email posted",
    );
  };

  const server = new SMTPServer({
    name: options.domain,
    banner: "ClientDesk reply by email",
    size: MAX_INBOUND_BYTES,
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    maxClients: 50,
    socketTimeout: options.idleTimeoutMs ?? INBOUND_IDLE_TIMEOUT_MS,
    closeTimeout: 5_000,
    onConnect: (session, callback) => {
      if (connections.take(session.id, session.remoteAddress)) return callback();
      logger.warn(
        { remoteAddress: session.remoteAddress },
        "inbound SMTP: too many connections from one address",
      );
      callback(
        new SmtpAnswer(
          421,
          `${options.domain} Too many connections from your address (at most ${MAX_CONNECTIONS_PER_ADDRESS}); try again later`,
        ),
      );
    },
    onRcptTo: (address, session, callback) => {
      onRcptTo(address, session).then(
        () => callback(),
        (error) => callback(answerOf(error, logger)),
      );
    },
    onData: (stream, session, callback) => {
      onData(stream, session)
        .then(
          () => callback(),
          (error) => {
            stream.resume();
            callback(answerOf(error, logger));
          },
        )
        .finally(() => recipients.delete(session.id));
    },
    onClose: (session) => {
      recipients.delete(session.id);
      connections.release(session.id);
    },
  });
  // SMTPServer re-emits its socket's errors; until it listens, listen() reports them.
  let listening = false;
  server.on("error", (error) => {
    if (listening) logger.warn({ err: error }, "inbound SMTP connection error");
  });
  await listen(server.server, {
    port: options.port,
    host: options.host,
    portSetting: "INBOUND_SMTP_PORT",
    hostSetting: "INBOUND_SMTP_HOST",
  });
  listening = true;
  const port = (server.server.address() as AddressInfo).port;
  logger.info(
    { port, host: options.host, domain: options.domain, authservId: options.authservId },
    `reply by email: SMTP listening on port ${port}, ${
      options.authservId
        ? `taking replies authenticated by ${options.authservId}`
        : "taking replies without Authentication-Results"
    }`,
  );
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The SMTP answer for a failure: its own, else a temporary failure (the sender retries). */
function answerOf(error: unknown, logger: Services["logger"]): Error {
  if (error instanceof SmtpAnswer) return error;
  logger.error({ err: error }, "inbound SMTP failed");
  return refuse.later();
}
