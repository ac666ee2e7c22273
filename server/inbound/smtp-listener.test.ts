import type Mail from "nodemailer/lib/mailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gmailReply } from "../../tests/fixtures/inbound-mail/replies";
import type { JoinedClient } from "../../tests/support/conversations";
import { testDatabase } from "../../tests/support/database";
import { type SignedInOwner, startConversation } from "../../tests/support/factories";
import {
  notification,
  type OpenSmtpConnection,
  openSmtpConnection,
  refusalOf,
  replyToOf,
  sendReply,
} from "../../tests/support/inbound-mail";
import { startTestServer, type TestServer } from "../../tests/support/server";
import { receiveEmailReply } from "../commands/receive-email-reply";
import { MAX_CONNECTIONS_PER_ADDRESS } from "./connections-per-address";
import { type InboundSmtp, startInboundSmtp } from "./smtp-listener";

/**
 * Replies nobody can forge, and a listener nobody can fill: the From header, the relay's
 * Authentication-Results (INBOUND_AUTHSERV_ID), and the connections one address may hold.
 * The test server's own listener runs without INBOUND_AUTHSERV_ID (as outside production);
 * a second one on the same server and database checks Authentication-Results.
 */
const AUTHSERV_ID = "mx.clientdesk.test";

let server: TestServer;
let authenticating: InboundSmtp;
beforeAll(async () => {
  // The notification sweep takes every due row of its database: this file gets its own.
  server = await startTestServer({ db: await testDatabase({ isolated: true }), inboundSmtp: true });
  authenticating = await startInboundSmtp(
    server.services,
    {
      ...server.services.config.inboundMail!,
      port: 0,
      host: "127.0.0.1",
      authservId: AUTHSERV_ID,
    },
    receiveEmailReply,
  );
});
afterAll(async () => {
  await authenticating?.close();
  await server?.close();
  await server?.db.destroy();
});

interface Conversation {
  owner: SignedInOwner;
  client: JoinedClient;
  /** The client's reply address, from a notification mail. */
  address: string;
}

async function conversation(): Promise<Conversation> {
  const { owner, client } = await startConversation(server);
  const mail = await notification(server, owner, client.email, client.id, "Any news?");
  return { owner, client, address: replyToOf(mail) };
}

async function contentsOf({ owner, client }: Conversation): Promise<(string | null)[]> {
  const page = await owner.agent.get(`/api/clients/${client.id}/messages`);
  expect(page.status).toBe(200);
  return (page.body as { content: string | null }[]).map((message) => message.content);
}

/** A reply as the client's relay delivers it: the client's envelope and From, and `headers`. */
function replyOf(
  { client, address }: Conversation,
  text: string,
  headers: Record<string, string> = {},
): Mail.Options {
  return gmailReply({ from: `Carla Client <${client.email}>`, to: address, text, headers });
}

/** The raw message with `header` lines on top, sent with the client's envelope. */
function rawReply({ client, address }: Conversation, header: string, text: string): Mail.Options {
  return {
    envelope: { from: client.email, to: address },
    raw: `${header}\r\nTo: ${address}\r\nSubject: Re: Any news?\r\nMessage-ID: <${crypto.randomUUID()}@mail.example>\r\n\r\n${text}\r\n`,
  };
}

describe("the From header", () => {
  it("must be one header naming one address, the person's: 550 5.7.1 otherwise", async () => {
    const talk = await conversation();
    const { email } = talk.client;
    for (const [header, text] of [
      [`From: mallory@evil.example\r\nFrom: ${email}`, "Two From headers."],
      [`From: ${email}, mallory@evil.example`, "Two addresses."],
      [`From: mallory@evil.example ${email}`, "An address hidden in the name."],
      [`From: Carla: ${email};`, "A group."],
      ["Reply-To: nobody@example.test", "No From at all."],
    ] as const) {
      const error = await refusalOf(server.inbound!.port, rawReply(talk, header, text));
      expect(error.responseCode, header).toBe(550);
      expect(error.response, header).toContain(
        "5.7.1 The From header must name exactly one address",
      );
    }
    const contents = await contentsOf(talk);
    expect(contents.at(-1)).toBe("Any news?");

    // One From naming the person, with a name that is itself an address, is theirs.
    await sendReply(
      server.inbound!.port,
      rawReply(talk, `From: "${email}" <${email}>`, "Quoted name, one address."),
    );
    expect((await contentsOf(talk)).at(-1)).toBe("Quoted name, one address.");
  });
});

describe("with INBOUND_AUTHSERV_ID: the relay's Authentication-Results", () => {
  const ours = (results: string) => ({ "Authentication-Results": `${AUTHSERV_ID}; ${results}` });

  it("refuses a forged SRS envelope and the right From, without the relay's verdict", async () => {
    const talk = await conversation();
    const [local, domain] = talk.client.email.split("@");
    const forged = {
      ...replyOf(talk, "Forged through SRS."),
      envelope: { from: `SRS0=HHH=TT=${domain}=${local}@forwarder.example`, to: talk.address },
    };
    const error = await refusalOf(authenticating.port, forged);
    expect(error.responseCode).toBe(550);
    expect(error.response).toContain("5.7.1 The sender's domain did not authenticate this mail");
    expect(await contentsOf(talk)).not.toContain("Forged through SRS.");

    // The listener without INBOUND_AUTHSERV_ID takes it, as before (outside production only).
    await sendReply(server.inbound!.port, forged);
    expect((await contentsOf(talk)).at(-1)).toBe("Forged through SRS.");
  });

  it("refuses results of another server, failed, unaligned or for another domain", async () => {
    const talk = await conversation();
    const domain = talk.client.email.split("@")[1]!;
    for (const headers of [
      { "Authentication-Results": `mx.evil.example; dmarc=pass header.from=${domain}` },
      { "Authentication-Results": `${AUTHSERV_ID}.evil.example; dmarc=pass header.from=${domain}` },
      ours(`dmarc=fail (p=reject) header.from=${domain}`),
      ours("dmarc=pass header.from=evil.example"),
      ours(`dmarc=pass`),
      ours("dkim=pass header.d=evil.example header.s=s1"),
      ours(`dkim=fail header.d=${domain}`),
      ours(`dkim=pass header.d=${domain}; dmarc=fail header.from=${domain}`),
      ours(`spf=pass smtp.mailfrom=${talk.client.email}`),
      // A sender's quoted address that closes the relay's comment adds no results.
      ours(
        `spf=pass (${AUTHSERV_ID}: domain of "x);dmarc=pass header.from=${domain};("@evil.example designates 192.0.2.1 as permitted sender) smtp.mailfrom="x);dmarc=pass header.from=${domain};("@evil.example`,
      ),
    ]) {
      const error = await refusalOf(
        authenticating.port,
        replyOf(talk, "Should not post.", headers),
      );
      expect(error.responseCode, JSON.stringify(headers)).toBe(550);
      expect(error.response).toContain("5.7.1");
    }
    expect(await contentsOf(talk)).not.toContain("Should not post.");
  });

  it("takes a reply with dmarc=pass for the From domain, or an aligned dkim=pass", async () => {
    const talk = await conversation();
    const domain = talk.client.email.split("@")[1]!;
    const posted: string[] = [];
    for (const [text, headers] of [
      // OpenDMARC's header beside OpenDKIM's.
      ["DMARC passed.", ours(`dmarc=pass (p=reject dis=none) header.from=${domain}`)],
      // Rspamd's: DKIM of a subdomain, DMARC none (no record).
      [
        "Aligned DKIM.",
        ours(
          `dkim=pass header.d=mail.${domain} header.s=s1 header.b=abc; dmarc=none; spf=pass (${AUTHSERV_ID}: domain of ${talk.client.email} designates 192.0.2.1 as permitted sender) smtp.mailfrom=${talk.client.email}`,
        ),
      ],
      [
        "Identity only.",
        ours(`dkim=pass (2048-bit key; unprotected) header.i=@${domain.toUpperCase()}`),
      ],
    ] as const) {
      const sent = await sendReply(authenticating.port, replyOf(talk, text, headers));
      expect(sent.accepted, text).toEqual([talk.address]);
      posted.push(text);
    }
    expect((await contentsOf(talk)).slice(-3)).toEqual(posted);
  });
});

describe("connections", () => {
  /** A listener of its own, so that no other test's connection holds a place. */
  async function ownListener(options: { idleTimeoutMs?: number } = {}): Promise<InboundSmtp> {
    return startInboundSmtp(
      server.services,
      { ...server.services.config.inboundMail!, port: 0, host: "127.0.0.1", ...options },
      receiveEmailReply,
    );
  }

  async function greetingOf(port: number): Promise<string> {
    return openSmtpConnection(port).then(
      ({ connection }) => {
        connection.quit();
        return "220";
      },
      (error: { response?: string }) => error.response ?? String(error),
    );
  }

  it(`answers 421 to a connection beyond ${MAX_CONNECTIONS_PER_ADDRESS} from one address, and takes one again once a place is free`, async () => {
    const listener = await ownListener();
    const open: OpenSmtpConnection[] = [];
    try {
      open.push(
        ...(await Promise.all(
          Array.from({ length: MAX_CONNECTIONS_PER_ADDRESS }, () =>
            openSmtpConnection(listener.port),
          ),
        )),
      );
      expect(await greetingOf(listener.port)).toMatch(
        /^421 .*Too many connections from your address/,
      );
      const first = open.shift()!;
      first.connection.quit();
      await first.ended;
      await expect.poll(() => greetingOf(listener.port)).toBe("220");
    } finally {
      for (const { connection } of open) connection.close();
      await listener.close();
    }
  });

  it("closes idle connections, so that they cannot hold the places", async () => {
    const listener = await ownListener({ idleTimeoutMs: 1_000 });
    try {
      const idle = await Promise.all(
        Array.from({ length: MAX_CONNECTIONS_PER_ADDRESS }, () =>
          openSmtpConnection(listener.port),
        ),
      );
      // Ended by the server: the client sent nothing after EHLO.
      await Promise.all(idle.map(({ ended }) => ended));
      await expect.poll(() => greetingOf(listener.port)).toBe("220");
    } finally {
      await listener.close();
    }
  });
});
