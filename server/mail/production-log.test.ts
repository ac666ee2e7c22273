import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addClient } from "../../tests/support/conversations";
import { signUpOwner } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { codeFrom } from "../../tests/support/smtp";
import { createLogger } from "../logger";
import { createMailer } from "./mailer";

/** Codes and links are keys to accounts and conversations: none reaches a production log. */
describe("the production log", () => {
  const lines: string[] = [];
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { NODE_ENV: "production", BILLING_MODE: "off", LOG_LEVEL: "trace" },
      logDestination: { write: (line) => lines.push(line) },
    });
  });
  afterAll(() => server?.close());

  it("holds no verification or reset code, and no invite token or short code", async () => {
    const owner = await signUpOwner(server);
    const forgot = await server.agent().post("/api/forgot-password", { email: owner.email });
    expect(forgot.status).toBe(200);
    // The reset mail goes out after the answer.
    await server.smtp.waitFor(owner.email, (mail) => /reset/i.test(mail.subject));
    const mails = server.smtp.mailsTo(owner.email);
    const codes = mails.map(codeFrom);
    expect(codes).toHaveLength(2);

    const added = await addClient(owner, { name: "Carla" });
    const code = new URL(added.response.body.shortInviteUrl).searchParams.get("code")!;
    expect((await server.agent().get(`/api/short-link/${code}`)).status).toBe(200);
    await fetch(`${server.url}/invite/${added.inviteToken}`);
    const accepted = await server.agent().post(`/api/invite/${added.inviteToken}`);
    expect(accepted.status).toBe(200);

    const log = lines.join("");
    expect(log).toContain('"msg":"mail sent"');
    for (const secret of [...codes, added.inviteToken, code]) expect(log).not.toContain(secret);
    expect(log).toContain('"path":"/api/invite/[redacted]"');
    expect(log).toContain('"path":"/api/short-link/[redacted]"');
  });

  it("never comes from a dev mailbox: production without SMTP has no mailer", () => {
    expect(() =>
      createMailer({
        from: "x@example.test",
        mailboxDir: "/tmp/unused",
        logger: createLogger("silent"),
        production: true,
      }),
    ).toThrow("SMTP_URL is required in production");
  });
});
