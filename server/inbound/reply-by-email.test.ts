import nodemailer from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  appleMailReply,
  gmailReply,
  htmlOnlyReply,
  inlineImage,
  outlookReply,
  outOfOfficeReply,
} from "../../tests/fixtures/inbound-mail/replies";
import type { TestClock } from "../../tests/support/clock";
import type { JoinedClient } from "../../tests/support/conversations";
import { testDatabase } from "../../tests/support/database";
import { type SignedInOwner, startConversation } from "../../tests/support/factories";
import { hugePng } from "../../tests/support/images";
import { minimalPdf } from "../../tests/support/pdf";
import { startTestServer, TEST_INBOUND_DOMAIN, type TestServer } from "../../tests/support/server";
import { addTeamMember } from "../../tests/support/team";
import type { ReceivedMail } from "../../tests/support/smtp";
import { TestSocket } from "../../tests/support/ws-client";
import { hashToken } from "../auth/sessions";
import { CLAIM_LEASE_MS } from "../idempotency/idempotency-key";
import { tokenOf } from "./reply-address";

let server: TestServer;
let clock: TestClock;
beforeAll(async () => {
  // The notification sweep takes every due row of its database: this file gets its own.
  server = await startTestServer({ db: await testDatabase({ isolated: true }), inboundSmtp: true });
  clock = server.clock as TestClock;
});
afterAll(async () => {
  await server?.close();
  await server?.db.destroy();
});

interface Conversation {
  owner: SignedInOwner;
  client: JoinedClient;
}

const conversation = (): Promise<Conversation> => startConversation(server);

/** The notification mail `to` gets once `from` wrote `content` and the delay passed. */
async function notification(
  from: SignedInOwner | JoinedClient,
  to: string,
  clientId: string,
  content: string,
): Promise<ReceivedMail> {
  const sent = await from.agent.post(`/api/clients/${clientId}/messages`, { content });
  expect(sent.status).toBe(201);
  clock.advanceMinutes(5);
  await server.jobs.runOnce("unanswered-messages");
  return server.smtp.waitFor(to, (mail) => mail.text.includes(content));
}

function replyToOf(mail: ReceivedMail): string {
  const address = mail.parsed.replyTo?.value[0]?.address;
  if (!address) throw new Error(`no Reply-To on "${mail.subject}"`);
  return address;
}

/** Sends `message` with nodemailer to the product's own SMTP listener. */
async function reply(message: Mail.Options) {
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port: server.inbound!.port,
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
async function refusal(message: Mail.Options): Promise<{ responseCode: number; response: string }> {
  const error = await reply(message).then(
    () => null,
    (failure: { responseCode: number; response: string }) => failure,
  );
  if (!error) throw new Error("the reply was accepted");
  return error;
}

async function messagesOf(agent: SignedInOwner["agent"], clientId: string) {
  const page = await agent.get(`/api/clients/${clientId}/messages`);
  expect(page.status).toBe(200);
  return page.body as {
    id: string;
    content: string | null;
    senderRole: string;
    fileName?: string;
    fileUrl: string | null;
  }[];
}

describe("replying to a notification", () => {
  it("posts the client's Gmail reply as their message, live on the owner's side", async () => {
    const { owner, client } = await conversation();
    const mail = await notification(owner, client.email, client.id, "Here is the first draft.");
    const address = replyToOf(mail);
    expect(address).toMatch(
      new RegExp(`^reply\\+[0-9a-f]{32}@${TEST_INBOUND_DOMAIN.replace(/\./g, "\\.")}$`),
    );
    expect(mail.text).toContain(
      "You can answer by replying to this email: your reply appears in the conversation.",
    );
    expect(mail.parsed.headers.get("auto-submitted")).toBe("auto-generated");

    const socket = await TestSocket.open(server.url, { cookie: owner.agent.cookieHeader });
    try {
      const sent = await reply(
        gmailReply({
          from: `Carla Client <${client.email}>`,
          to: address,
          text: "Looks great, thanks!\nOne question: can the logo be darker?",
          signature: "Carla Client\nAcme Ltd",
        }),
      );
      expect(sent.accepted).toEqual([address]);
      const event = await socket.waitFor(
        (received) => received.type === "new_message" && received.clientId === client.id,
      );
      const messages = await messagesOf(owner.agent, client.id);
      const last = messages.at(-1)!;
      expect(last.id).toBe(event.messageId);
      expect(last.senderRole).toBe("client");
      expect(last.content).toBe("Looks great, thanks!\nOne question: can the logo be darker?");
    } finally {
      socket.close();
    }
  });

  it("posts the owner's Outlook reply without the quoted notification or the sign-off", async () => {
    const { owner, client } = await conversation();
    const mail = await notification(client, owner.email, client.id, "Can we move the call?");
    const socket = await TestSocket.open(server.url, { cookie: client.agent.cookieHeader });
    try {
      await reply(
        outlookReply({
          from: `Olivia Owner <${owner.email}>`,
          to: replyToOf(mail),
          text: "Friday at 3 works for me.",
          signature: "Best regards\nOlivia Owner\nOwner Studio",
          attachments: [inlineImage(hugePng(8, 8))],
        }),
      );
      await socket.waitFor((event) => event.type === "new_message" && event.clientId === client.id);
      const messages = await messagesOf(client.agent, client.id);
      expect(messages.at(-1)).toMatchObject({
        senderRole: "owner",
        content: "Friday at 3 works for me.",
      });
      // The signature's embedded logo is no file of the conversation.
      expect(messages.filter((message) => message.content === null)).toHaveLength(0);
    } finally {
      socket.close();
    }
  });

  it("takes an HTML-only reply", async () => {
    const { owner, client } = await conversation();
    const mail = await notification(owner, client.email, client.id, "Please review the proposal.");
    await reply(
      htmlOnlyReply({ from: client.email, to: replyToOf(mail), text: "Reviewed: all good." }),
    );
    const messages = await messagesOf(owner.agent, client.id);
    expect(messages.at(-1)).toMatchObject({ senderRole: "client", content: "Reviewed: all good." });
  });

  it("makes attachments of accepted types files of the conversation and skips the others", async () => {
    const { owner, client } = await conversation();
    const mail = await notification(
      owner,
      client.email,
      client.id,
      "Please send the signed contract.",
    );
    await reply(
      appleMailReply({
        from: client.email,
        to: replyToOf(mail),
        text: "Signed contract attached.",
        attachments: [
          {
            filename: "contract.pdf",
            content: minimalPdf(),
            contentType: "application/pdf",
            contentDisposition: "inline",
          },
          { filename: "photo.png", content: hugePng(8, 8), contentType: "image/png" },
          {
            filename: "setup.exe",
            content: Buffer.from("MZ not allowed"),
            contentType: "application/octet-stream",
          },
          {
            filename: "fake.pdf",
            content: Buffer.from("not a pdf at all"),
            contentType: "application/pdf",
          },
          {
            filename: "big.pdf",
            content: Buffer.concat([minimalPdf(), Buffer.alloc(10 * 1024 * 1024)]),
            contentType: "application/pdf",
          },
          inlineImage(hugePng(8, 8)),
        ],
      }),
    );
    const messages = await messagesOf(owner.agent, client.id);
    expect(messages.slice(-3)).toMatchObject([
      { senderRole: "client", content: "Signed contract attached." },
      { senderRole: "client", content: null, fileName: "contract.pdf" },
      { senderRole: "client", content: null, fileName: "photo.png" },
    ]);
    const files = await owner.agent.get(`/api/clients/${client.id}/attachments`);
    expect(files.body.map((file: { fileName: string }) => file.fileName)).toEqual([
      "photo.png",
      "contract.pdf",
    ]);
    const download = await fetch(`${server.url}${messages.at(-2)!.fileUrl}`, {
      headers: { cookie: owner.agent.cookieHeader },
    });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(minimalPdf())).toBe(true);
  });

  it("takes at most 10 files from one reply", async () => {
    const { owner, client } = await conversation();
    const mail = await notification(owner, client.email, client.id, "All the pages, please.");
    await reply(
      gmailReply({
        from: client.email,
        to: replyToOf(mail),
        text: "Eleven pages.",
        attachments: Array.from({ length: 11 }, (_, index) => ({
          filename: `page-${index + 1}.pdf`,
          content: minimalPdf(`Page ${index + 1}`),
          contentType: "application/pdf",
        })),
      }),
    );
    const files = await owner.agent.get(`/api/clients/${client.id}/attachments`);
    expect(files.body).toHaveLength(10);
    expect(files.body.map((file: { fileName: string }) => file.fileName)).not.toContain(
      "page-11.pdf",
    );
  });

  it("gives the same person the same address in later mails about the conversation", async () => {
    const { owner, client } = await conversation();
    const first = await notification(owner, client.email, client.id, "First question.");
    await client.agent.post(`/api/clients/${client.id}/messages`, {
      content: "Answered in the app.",
    });
    const second = await notification(owner, client.email, client.id, "Second question.");
    expect(replyToOf(second)).toBe(replyToOf(first));
    const ownerMail = await notification(
      client,
      owner.email,
      client.id,
      "A question for the owner.",
    );
    expect(replyToOf(ownerMail)).not.toBe(replyToOf(first));
  });

  it("posts a mail delivered twice (same Message-ID) once", async () => {
    const { owner, client } = await conversation();
    const mail = await notification(owner, client.email, client.id, "Are you there?");
    const message = gmailReply({ from: client.email, to: replyToOf(mail), text: "Yes, once." });
    await reply(message);
    await reply(message);
    const messages = await messagesOf(owner.agent, client.id);
    expect(messages.filter((item) => item.content === "Yes, once.")).toHaveLength(1);

    // Remembered for 30 days (the cleanup job), far beyond any relay's retries.
    clock.advanceMinutes(29 * 24 * 60);
    await server.jobs.runOnce("reply-message-ids-cleanup");
    await reply(message);
    expect(
      (await messagesOf(owner.agent, client.id)).filter((item) => item.content === "Yes, once."),
    ).toHaveLength(1);
    clock.advanceMinutes(2 * 24 * 60);
    await server.jobs.runOnce("reply-message-ids-cleanup");
    await reply(message);
    expect(
      (await messagesOf(owner.agent, client.id)).filter((item) => item.content === "Yes, once."),
    ).toHaveLength(2);
  });

  it("posts on retry a reply whose Message-ID was claimed but never posted, once the lease ran out", async () => {
    const { owner, client } = await conversation();
    const mail = await notification(owner, client.email, client.id, "Did my file arrive?");
    const address = replyToOf(mail);
    const message = gmailReply({ from: client.email, to: address, text: "Sent before a crash." });
    const posted = async () =>
      (await messagesOf(owner.agent, client.id)).filter(
        (item) => item.content === "Sent before a crash.",
      );
    // What an attempt leaves when its process stops mid-post, or when it cannot release its
    // claim after a failed post (database down): the Message-ID claimed, never marked posted.
    const replyAddress = await server
      .db("reply_addresses")
      .select("id")
      .where("token_hash", hashToken(tokenOf(address, TEST_INBOUND_DOMAIN)!))
      .first();
    await server.db("reply_message_ids").insert({
      reply_address_id: replyAddress.id,
      message_id_hash: hashToken(message.messageId as string),
      received_at: clock.now(),
    });

    // Within the lease the first attempt may still be posting: refused for now, not dropped.
    const early = await refusal(message);
    expect(early.responseCode).toBe(451);
    expect(await posted()).toHaveLength(0);

    // Past it the relay's retry takes the claim over and posts; a later copy is dropped.
    clock.advanceMinutes(CLAIM_LEASE_MS / 60_000 + 1);
    const retried = await reply(message);
    expect(retried.accepted).toEqual([address]);
    expect(await posted()).toHaveLength(1);
    await reply(message);
    expect(await posted()).toHaveLength(1);
  });
});

describe("a team member's reply (issue 26)", () => {
  it("posts as the assigned member the notification went to, and stops once they are unassigned or removed", async () => {
    const { owner, client } = await conversation();
    const alex = await addTeamMember(server, owner, { fullName: "Alex Assigned" });
    const assigned = await owner.agent.put(`/api/clients/${client.id}/assignees`, {
      userIds: [alex.id],
    });
    expect(assigned.status).toBe(200);
    const mail = await notification(client, alex.email, client.id, "Who is on this?");
    const address = replyToOf(mail);

    await reply(gmailReply({ from: alex.email, to: address, text: "I am, Alex here." }));
    const portal = await client.agent.get(`/api/clients/${client.id}/messages`);
    expect(portal.status).toBe(200);
    expect(portal.body.at(-1)).toMatchObject({
      content: "I am, Alex here.",
      senderRole: "owner",
      authorName: "Alex Assigned",
    });

    // No longer assigned: they may not write there (the address comes back with the client).
    await owner.agent.put(`/api/clients/${client.id}/assignees`, { userIds: [] });
    const unassigned = await refusal(
      gmailReply({ from: alex.email, to: address, text: "Still me, unassigned." }),
    );
    expect(unassigned.responseCode).toBe(550);
    expect(unassigned.response).toContain("This conversation is no longer available");

    const removed = await owner.agent.delete(`/api/team/members/${alex.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const refused = await refusal(
      gmailReply({ from: alex.email, to: address, text: "Still me, after leaving." }),
    );
    expect(refused.responseCode).toBe(550);
    expect(refused.response).toContain("5.1.1 No such reply address");
    const after = await messagesOf(owner.agent, client.id);
    expect(after.map((message) => message.content)).not.toContain("Still me, after leaving.");
    expect(after.map((message) => message.content)).not.toContain("Still me, unassigned.");
  });
});

describe("refused and dropped mail", () => {
  it("refuses an unknown address at RCPT with 550", async () => {
    const error = await refusal(
      gmailReply({
        from: "someone@example.com",
        to: `reply+${"0".repeat(32)}@${TEST_INBOUND_DOMAIN}`,
        text: "Hello?",
      }),
    );
    expect(error.responseCode).toBe(550);
    expect(error.response).toContain("5.1.1");
    const otherDomain = await refusal(
      gmailReply({
        from: "someone@example.com",
        to: "reply+abc@elsewhere.example",
        text: "Hello?",
      }),
    );
    expect(otherDomain.responseCode).toBe(550);
  });

  it("refuses a sender who is not the address's person, at RCPT (envelope) and at DATA (From)", async () => {
    const { owner, client } = await conversation();
    const mail = await notification(owner, client.email, client.id, "Only for Carla.");
    const address = replyToOf(mail);
    const atRcpt = await refusal(
      gmailReply({ from: "mallory@example.com", to: address, text: "Hi" }),
    );
    expect(atRcpt.responseCode).toBe(550);
    expect(atRcpt.response).toContain("5.7.1");
    const atData = await refusal({
      ...gmailReply({ from: "mallory@example.com", to: address, text: "Hi" }),
      envelope: { from: client.email, to: address },
    });
    expect(atData.responseCode).toBe(550);
    expect(atData.response).toContain("5.7.1");
    // A forwarder's SRS address of the right person passes.
    const [local, domain] = client.email.split("@");
    await reply({
      ...gmailReply({ from: client.email, to: address, text: "Forwarded through SRS." }),
      envelope: { from: `SRS0=HHH=TT=${domain}=${local}@forwarder.example`, to: address },
    });
    const messages = await messagesOf(owner.agent, client.id);
    expect(messages.map((item) => item.content)).not.toContain("Hi");
    expect(messages.at(-1)?.content).toBe("Forwarded through SRS.");
  });

  it("takes one reply address per message (452 for a second)", async () => {
    const { owner, client } = await conversation();
    const mail = await notification(owner, client.email, client.id, "One recipient, please.");
    const address = replyToOf(mail);
    const info = await reply({
      ...gmailReply({ from: client.email, to: address, text: "Two recipients." }),
      to: [address, `reply+${"1".repeat(32)}@${TEST_INBOUND_DOMAIN}`],
    });
    expect(info.accepted).toEqual([address]);
    expect(info.rejectedErrors?.[0]).toMatchObject({ responseCode: 452 });
    const messages = await messagesOf(owner.agent, client.id);
    expect(messages.at(-1)?.content).toBe("Two recipients.");
  });

  it("stops taking the client's address once their invite is reissued or the client is deleted", async () => {
    const { owner, client } = await conversation();
    const mail = await notification(owner, client.email, client.id, "Old address test.");
    const address = replyToOf(mail);
    const reissued = await owner.agent.post(`/api/clients/${client.id}/invite`);
    expect(reissued.status).toBe(200);
    const revoked = await refusal(
      gmailReply({ from: client.email, to: address, text: "Still here?" }),
    );
    expect(revoked.responseCode).toBe(550);

    const other = await conversation();
    const toOther = await notification(other.owner, other.client.email, other.client.id, "Bye.");
    const deleted = await other.owner.agent.delete(`/api/clients/${other.client.id}`);
    expect(deleted.status).toBe(200);
    const gone = await refusal(
      gmailReply({ from: other.client.email, to: replyToOf(toOther), text: "Hello?" }),
    );
    expect(gone.responseCode).toBe(550);
  });

  it("refuses a message over 25 MB at DATA with 552", async () => {
    const { owner, client } = await conversation();
    const mail = await notification(owner, client.email, client.id, "Send everything.");
    const error = await refusal(
      gmailReply({
        from: client.email,
        to: replyToOf(mail),
        text: "Everything attached.",
        attachments: [
          {
            filename: "huge.pdf",
            content: Buffer.alloc(19 * 1024 * 1024, 1),
            contentType: "application/pdf",
          },
        ],
      }),
    );
    expect(error.responseCode).toBe(552);
    const messages = await messagesOf(owner.agent, client.id);
    expect(messages.at(-1)?.content).toBe("Send everything.");
  });

  it("drops out-of-office answers without posting them", async () => {
    const { owner, client } = await conversation();
    const mail = await notification(owner, client.email, client.id, "Quick question.");
    for (const style of ["auto-submitted", "x-autoreply", "subject", "precedence"] as const) {
      const info = await reply(
        outOfOfficeReply({
          from: client.email,
          to: replyToOf(mail),
          style,
          text: "I am away until Monday.",
        }),
      );
      expect(info.accepted).toHaveLength(1);
    }
    const messages = await messagesOf(owner.agent, client.id);
    expect(messages.map((item) => item.content)).not.toContain("I am away until Monday.");
  });

  it("never posts the product's own mail: its sender, or its header, or an empty envelope", async () => {
    const { owner, client } = await conversation();
    const mail = await notification(owner, client.email, client.id, "Loop test.");
    const address = replyToOf(mail);
    const productFrom = server.services.config.mailFrom;
    await reply({ ...gmailReply({ from: productFrom, to: address, text: "From the product." }) });
    await reply(
      gmailReply({
        from: client.email,
        to: address,
        text: "A copy of our mail.",
        headers: { "X-ClientDesk-Mail": "1", "Auto-Submitted": "auto-generated" },
      }),
    );
    await reply({
      ...gmailReply({ from: client.email, to: address, text: "A bounce." }),
      envelope: { from: "", to: address },
    });
    const messages = await messagesOf(owner.agent, client.id);
    expect(messages.at(-1)?.content).toBe("Loop test.");
  });

  it("bounces a mail with nothing to post (550), naming why", async () => {
    const { owner, client } = await conversation();
    const mail = await notification(owner, client.email, client.id, "Send the file.");
    const error = await refusal(
      gmailReply({
        from: client.email,
        to: replyToOf(mail),
        text: "",
        quoted: "Send the file.",
        attachments: [
          {
            filename: "virus.exe",
            content: Buffer.from("MZ"),
            contentType: "application/octet-stream",
          },
        ],
      }),
    );
    expect(error.responseCode).toBe(550);
    expect(error.response).toContain("virus.exe: File type not supported");
  });
});
