import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORPUS, corpusMail, normalizeText } from "../../tests/fixtures/inbound-mail/corpus/corpus";
import type { TestClock } from "../../tests/support/clock";
import { addJoinedClient } from "../../tests/support/conversations";
import { testDatabase } from "../../tests/support/database";
import { signUpOwner } from "../../tests/support/factories";
import { startTestServer, type TestServer } from "../../tests/support/server";

let server: TestServer;
beforeAll(async () => {
  // The notification sweep takes every due row of its database: this file gets its own.
  server = await startTestServer({ db: await testDatabase({ isolated: true }), inboundSmtp: true });
});
afterAll(async () => {
  await server?.close();
  await server?.db.destroy();
});

/** The fixture as that client would send it: its own From header, to the reply address. */
function asSentBy(file: string, from: string, to: string): Buffer {
  const mail = corpusMail(file);
  const end = mail.indexOf("\n\n") === -1 ? mail.length : mail.indexOf("\n\n");
  const head = mail
    .subarray(0, end)
    .toString("latin1")
    .replace(/^(From|To):.*(?:\r?\n[ \t].*)*$/gim, (_line, name: string) =>
      name.toLowerCase() === "from" ? `From: Carla Client <${from}>` : `To: ${to}`,
    );
  return Buffer.concat([Buffer.from(head, "latin1"), mail.subarray(end)]);
}

describe("corpus replies through the product's SMTP listener", () => {
  const files = [
    "talon--html_windows_mail.eml",
    "constructed--windows-mail-from-name-only.eml",
    "constructed--blackberry10-rgb-border.eml",
    "constructed--big5-declared-over-utf8.eml",
    "constructed--qp-declared-over-raw-8bit.eml",
    "constructed--multipart-without-parts.eml",
  ];

  for (const file of files) {
    it(`posts only the new text of ${file}`, async () => {
      const owner = await signUpOwner(server, "Olivia Owner");
      const client = await addJoinedClient(server, owner, { name: "Carla Client" });
      const sent = await owner.agent.post(`/api/clients/${client.id}/messages`, {
        content: "Here is the first draft of the logo.",
      });
      expect(sent.status).toBe(201);
      (server.clock as TestClock).advanceMinutes(5);
      await server.jobs.runOnce("unanswered-messages");
      const notification = await server.smtp.waitFor(client.email, (mail) =>
        mail.text.includes("Here is the first draft of the logo."),
      );
      const address = notification.parsed.replyTo?.value[0]?.address;
      if (!address) throw new Error("the notification has no Reply-To");

      const transport = nodemailer.createTransport({
        host: "127.0.0.1",
        port: server.inbound!.port,
        secure: false,
        ignoreTLS: true,
      });
      try {
        await transport.sendMail({
          envelope: { from: client.email, to: [address] },
          raw: asSentBy(file, client.email, address),
        });
      } finally {
        transport.close();
      }

      const page = await owner.agent.get(`/api/clients/${client.id}/messages`);
      const last = (page.body as { senderRole: string; content: string | null }[]).at(-1)!;
      const expected = CORPUS.find((reply) => reply.file === file)!.expected;
      expect(last.senderRole).toBe("client");
      expect(normalizeText(last.content ?? "")).toBe(normalizeText(expected));
    });
  }
});
