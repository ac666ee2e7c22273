import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueEmail } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";

describe("/dev/mail outside production", () => {
  let server: TestServer;
  beforeAll(async () => {
    // No SMTP_URL: mail goes to the dev mailbox under DATA_DIR/mail.
    server = await startTestServer({ env: { SMTP_URL: "" } });
  });
  afterAll(() => server?.close());

  it("lists the dev mailbox's mails and shows each one", async () => {
    const agent = server.agent();
    const empty = await agent.get("/dev/mail");
    expect(empty.status).toBe(200);
    expect(empty.body).toContain("No mail yet.");

    const email = uniqueEmail("dev");
    const registered = await agent.post("/api/register", {
      email,
      password: "correct horse battery",
      fullName: "Dana <Dev>",
      role: "owner",
      accountTier: "free",
    });
    expect(registered.status).toBe(201);
    await server.mailSettled();
    expect(server.smtp.received).toHaveLength(0);

    const list = await agent.get("/dev/mail");
    expect(list.headers.get("content-type")).toMatch(/text\/html/);
    const link = list.body.match(
      /<a href="(\/dev\/mail\/[^"]+)">(\d{6}) is your ClientDesk verification code<\/a>/,
    );
    expect(link, list.body).not.toBeNull();
    expect(list.body).toContain(email);
    const [, mailPath, code] = link as RegExpMatchArray;

    const shown = await agent.get(mailPath as string);
    expect(shown.status).toBe(200);
    expect(shown.body).toContain(`<pre>Verify your email`);
    expect(shown.body).toContain(code);
    expect(shown.body).toContain(`<iframe title="HTML part" src="${mailPath}/html"`);

    const html = await agent.get(`${mailPath}/html`);
    expect(html.status).toBe(200);
    expect(html.headers.get("content-security-policy")).toMatch(/^sandbox /);
    expect(html.body).toContain(`>${code}</p>`);

    const raw = await agent.get(`${mailPath}/raw`);
    expect(raw.headers.get("content-type")).toMatch(/message\/rfc822/);
    expect(raw.body).toMatch(/^Subject: \d{6} is your ClientDesk verification code$/m);

    expect((await agent.get("/dev/mail/..%2F..%2Fsession-secret")).status).toBe(404);
    // Through a proxy it is not the person at the machine.
    expect((await agent.get("/dev/mail", { "x-forwarded-for": "203.0.113.9" })).status).toBe(404);
    expect((await agent.get(mailPath as string, { forwarded: "for=203.0.113.9" })).status).toBe(
      404,
    );
    expect((await agent.get("/dev/mail/2026-01-01T00-00-00-000Z-aaaaaa")).status).toBe(404);
  });
});

describe("/dev/mail in production", () => {
  it("does not exist", async () => {
    const server = await startTestServer({ env: { NODE_ENV: "production", BILLING_MODE: "off" } });
    try {
      const response = await server.agent().get("/dev/mail");
      expect(String(response.body)).not.toContain("Dev mailbox");
    } finally {
      await server.close();
    }
  });
});
