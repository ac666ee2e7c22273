import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpOwner } from "../../tests/support/factories";
import { startTestServer, type TestServer } from "../../tests/support/server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe("the product's outgoing mail", () => {
  it("says it is automatic, asks responders not to answer, and carries the product's mark", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const mails = server.smtp.mailsTo(owner.email);
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) {
      expect(mail.parsed.headers.get("auto-submitted")).toBe("auto-generated");
      expect(mail.parsed.headers.get("x-auto-response-suppress")).toBe("All");
      expect(mail.parsed.headers.get("x-clientdesk-mail")).toBe("1");
    }
  });

  it("has no Reply-To when reply by email is off", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    for (const mail of server.smtp.mailsTo(owner.email))
      expect(mail.parsed.replyTo).toBeUndefined();
    expect(server.services.config.inboundMail).toBeUndefined();
  });
});
