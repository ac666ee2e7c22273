import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  parsed: ParsedMail;
}

/** A real SMTP server on a free port that keeps what it receives. */
export class TestSmtpServer {
  readonly received: ReceivedMail[] = [];
  private waiters: (() => void)[] = [];
  /** Answer the next N deliveries with a temporary failure. */
  refuseNext = 0;
  /** Addresses whose RCPT TO is answered 550 (no such mailbox): a refusal for good. */
  readonly unknownRecipients = new Set<string>();
  /** Deliveries kept waiting by hold(): neither received nor answered until released. */
  private held: (() => void)[] | null = null;
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (!this.unknownRecipients.has(address.address.toLowerCase())) return callback();
        const error = new Error("No such mailbox") as Error & { responseCode: number };
        error.responseCode = 550;
        callback(error);
      },
      onData: (stream, _session, callback) => {
        if (this.refuseNext > 0) {
          this.refuseNext -= 1;
          stream.resume();
          const error = new Error("Try again later") as Error & { responseCode: number };
          error.responseCode = 451;
          stream.on("end", () => callback(error));
          return;
        }
        const receive = () =>
          simpleParser(stream)
            .then((parsed) => {
              const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
              this.received.push({
                to: to?.value[0]?.address ?? "",
                subject: parsed.subject ?? "",
                text: parsed.text ?? "",
                html: typeof parsed.html === "string" ? parsed.html : "",
                parsed,
              });
              for (const wake of this.waiters.splice(0)) wake();
              callback();
            })
            .catch(callback);
        if (this.held) this.held.push(receive);
        else void receive();
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Keeps every delivery from now on waiting; the returned function lets them all through. */
  hold(): () => void {
    this.held ??= [];
    return () => {
      const waiting = this.held ?? [];
      this.held = null;
      for (const receive of waiting) receive();
    };
  }

  /** How many deliveries hold() is keeping waiting. */
  get heldCount(): number {
    return this.held?.length ?? 0;
  }

  mailsTo(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to === address.toLowerCase());
  }

  /** Waits until a mail to `address` matching `match` arrives (or fails after timeoutMs). */
  async waitFor(
    address: string,
    match: (mail: ReceivedMail) => boolean = () => true,
    timeoutMs = 5000,
  ) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.mailsTo(address).filter(match).at(-1);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No mail to ${address} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, left);
      });
    }
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The first 6-digit code in a mail's text. */
export function codeFrom(mail: ReceivedMail): string {
  const match = mail.text.match(/\b(\d{6})\b/);
  if (!match?.[1]) throw new Error(`No code in mail "${mail.subject}"`);
  return match[1];
}

/** The link labelled `label` in a mail's plain text ("Label: url"). */
export function linkIn(mail: ReceivedMail, label: string): string {
  const url = new RegExp(`^${label}: (\\S+)$`, "m").exec(mail.text)?.[1];
  if (!url) throw new Error(`no "${label}" link in "${mail.subject}"`);
  return url;
}
