import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../../tests/support/clock";
import { addClient } from "../../../tests/support/conversations";
import { signUpOwner, uniqueEmail } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { codeFrom } from "../../../tests/support/smtp";
import { TestSocket } from "../../../tests/support/ws-client";
import { User } from "../../models";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const register = (email: string, extra: Record<string, unknown> = {}) =>
  server.agent().post("/api/register", {
    email,
    password: "secret123",
    fullName: "Nora New",
    role: "owner",
    accountTier: "free",
    ...extra,
  });

describe("sign-up and verification", () => {
  it("asks for verification, refuses sign-in until then, and signs in with the mailed code", async () => {
    const email = uniqueEmail();
    const agent = server.agent();
    const registered = await agent.post("/api/register", {
      email,
      password: "secret123",
      fullName: "Nora New",
      role: "owner",
      accountTier: "free",
    });
    expect(registered.status).toBe(201);
    expect(registered.body).toEqual({ requiresVerification: true, email });
    // The account is made after the answer (the answer must not tell whether it existed).
    await server.mailSettled();

    const early = await agent.post("/api/login", { username: email, password: "secret123" });
    expect(early.status).toBe(403);
    expect(early.body.message).toMatch(/^VERIFICATION_REQUIRED/);
    expect(early.body).toMatchObject({ requiresVerification: true, email });

    const mail = await server.smtp.waitFor(email);
    expect(mail.subject).toContain("verification code");
    expect(mail.html).toContain(codeFrom(mail));

    const wrong = await agent.post("/api/verify-email", {
      email,
      code: codeFrom(mail) === "000000" ? "111111" : "000000",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("Invalid or expired verification code");

    const verified = await agent.post("/api/verify-email", { email, code: codeFrom(mail) });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({
      email,
      role: "owner",
      accountTier: "free",
      emailVerified: true,
    });

    const me = await agent.get("/api/user");
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
    expect(me.body).not.toHaveProperty("passwordHash");

    const again = await agent.post("/api/verify-email", { email, code: codeFrom(mail) });
    expect(again.status).toBe(400);
  });

  it("answers alike for an address that already has an account, and tells its owner by mail", async () => {
    const owner = await signUpOwner(server);
    const fresh = uniqueEmail();
    const forNew = await register(fresh);
    const forExisting = await register(owner.email);
    expect(forExisting.status).toBe(forNew.status);
    expect(Object.keys(forExisting.body)).toEqual(Object.keys(forNew.body));
    const notice = await server.smtp.waitFor(owner.email, (mail) =>
      mail.subject.includes("tried to sign up"),
    );
    expect(notice.text).toContain("already has one");
    // The existing account keeps its password.
    const login = await server
      .agent()
      .post("/api/login", { username: owner.email, password: owner.password });
    expect(login.status).toBe(200);
  });

  it("kills a code after 10 wrong tries", async () => {
    const email = uniqueEmail();
    await register(email);
    const code = codeFrom(await server.smtp.waitFor(email));
    const wrong = code === "123456" ? "654321" : "123456";
    for (let i = 0; i < 10; i++) {
      expect((await server.agent().post("/api/verify-email", { email, code: wrong })).status).toBe(
        400,
      );
    }
    expect((await server.agent().post("/api/verify-email", { email, code })).status).toBe(400);
  });

  it("expires a verification code after 10 minutes", async () => {
    const email = uniqueEmail();
    await register(email);
    const code = codeFrom(await server.smtp.waitFor(email));
    (server.clock as TestClock).advanceMinutes(11);
    const late = await server.agent().post("/api/verify-email", { email, code });
    expect(late.status).toBe(400);
  });

  it("sends the same code again on resend, and a new one once it is nearly spent", async () => {
    const email = uniqueEmail();
    await register(email);
    const first = codeFrom(await server.smtp.waitFor(email));
    const resent = await server.agent().post("/api/resend-verification", { email });
    expect(resent.status).toBe(200);
    await server.mailSettled();
    expect(server.smtp.mailsTo(email).map(codeFrom)).toEqual([first, first]);

    // With less than three of its ten minutes left, asking again replaces it.
    (server.clock as TestClock).advanceMinutes(8);
    await server.agent().post("/api/resend-verification", { email });
    await server.mailSettled();
    const third = codeFrom(server.smtp.mailsTo(email)[2]!);
    expect(third).not.toBe(first);
    expect((await server.agent().post("/api/verify-email", { email, code: first })).status).toBe(
      400,
    );
    expect((await server.agent().post("/api/verify-email", { email, code: third })).status).toBe(
      200,
    );
  });

  it("answers resend alike for unknown addresses and sends nothing", async () => {
    const unknown = uniqueEmail("nobody");
    const response = await server.agent().post("/api/resend-verification", { email: unknown });
    expect(response.status).toBe(200);
    // The mail would be sent by the work queued after the answer: once that is done, none was.
    await server.services.events.idle();
    await server.services.afterAnswer.idle();
    expect(server.smtp.mailsTo(unknown)).toHaveLength(0);
  });
});

describe("sign-in and sessions", () => {
  it("refuses a wrong password and an unknown email with the same answer", async () => {
    const owner = await signUpOwner(server);
    const wrong = await server
      .agent()
      .post("/api/login", { username: owner.email, password: "nope-nope" });
    const unknown = await server
      .agent()
      .post("/api/login", { username: uniqueEmail(), password: "nope-nope" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: "Invalid email or password" });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
  });

  it("throttles sign-in per account, even with the right password afterwards", async () => {
    const owner = await signUpOwner(server);
    for (let i = 0; i < 10; i++) {
      expect(
        (await server.agent().post("/api/login", { username: owner.email, password: "wrong-one" }))
          .status,
      ).toBe(401);
    }
    const blocked = await server
      .agent()
      .post("/api/login", { username: owner.email, password: owner.password });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/Too many attempts/);
  });

  it("gives a new session id at sign-in and ends it server-side at sign-out", async () => {
    const owner = await signUpOwner(server);
    const before = owner.agent.cookieHeader;
    const login = await owner.agent.post("/api/login", {
      username: owner.email,
      password: owner.password,
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.getSetCookie().find((line) => line.startsWith("sid="))!;
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=lax/i);
    expect(owner.agent.cookieHeader).not.toBe(before);
    // The old session was ended.
    expect((await server.agent().get("/api/user", { cookie: before })).status).toBe(401);

    const stolen = owner.agent.cookieHeader;
    expect((await owner.agent.post("/api/logout")).status).toBe(200);
    expect((await server.agent().get("/api/user", { cookie: stolen })).status).toBe(401);
  });

  it("closes the signed-out session's open sockets at once, and only those", async () => {
    const owner = await signUpOwner(server);
    const otherTab = await TestSocket.open(server.url, { cookie: owner.agent.cookieHeader });
    const phone = server.agent();
    expect(
      (await phone.post("/api/login", { username: owner.email, password: owner.password })).status,
    ).toBe(200);
    const phoneSocket = await TestSocket.open(server.url, { cookie: phone.cookieHeader });
    try {
      expect((await owner.agent.post("/api/logout")).status).toBe(200);
      // At once, through the SessionEnded event.
      expect((await otherTab.waitForClose(2_000)).code).toBe(4401);
      // A message sent afterwards still reaches the phone: it was not closed with the other tab.
      const client = await addClient({ ...owner, agent: phone });
      const sent = await phone.post(`/api/clients/${client.id}/messages`, {
        content: "still here",
      });
      expect(sent.status).toBe(201);
      await phoneSocket.waitFor((e) => e.messageId === sent.body.id);
      expect(phoneSocket.isOpen).toBe(true);
    } finally {
      phoneSocket.close();
    }
  });

  it("answers 401 with a message when nobody is signed in", async () => {
    const response = await server.agent().get("/api/user");
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: "Not signed in" });
  });
});

describe("password reset", () => {
  it("resets with the mailed code, ends other sessions, and the code works once", async () => {
    const owner = await signUpOwner(server);
    const forgot = await server.agent().post("/api/forgot-password", { email: owner.email });
    expect(forgot.status).toBe(200);
    const mail = await server.smtp.waitFor(owner.email, (m) => m.subject.includes("reset"));
    expect(mail.text).toContain("15 minutes");
    const token = codeFrom(mail);

    const reset = await server
      .agent()
      .post("/api/reset-password", { email: owner.email, token, newPassword: "brand-new-pw" });
    expect(reset.status).toBe(200);
    expect(typeof reset.body.message).toBe("string");
    expect((await owner.agent.get("/api/user")).status).toBe(401);

    expect(
      (await server.agent().post("/api/login", { username: owner.email, password: owner.password }))
        .status,
    ).toBe(401);
    expect(
      (await server.agent().post("/api/login", { username: owner.email, password: "brand-new-pw" }))
        .status,
    ).toBe(200);

    const reused = await server
      .agent()
      .post("/api/reset-password", { email: owner.email, token, newPassword: "another-pw" });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toBe("Invalid or expired reset code");
  });

  it("answers forgot-password alike whether or not the email exists", async () => {
    const owner = await signUpOwner(server);
    const known = await server.agent().post("/api/forgot-password", { email: owner.email });
    const unknown = await server
      .agent()
      .post("/api/forgot-password", { email: uniqueEmail("ghost") });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
  });

  it("expires a reset code after 15 minutes", async () => {
    const owner = await signUpOwner(server);
    await server.agent().post("/api/forgot-password", { email: owner.email });
    const token = codeFrom(
      await server.smtp.waitFor(owner.email, (m) => m.subject.includes("reset")),
    );
    (server.clock as TestClock).advanceMinutes(16);
    const late = await server
      .agent()
      .post("/api/reset-password", { email: owner.email, token, newPassword: "brand-new-pw" });
    expect(late.status).toBe(400);
  });
});

describe("bad input changes nothing", () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["a client role", { role: "client" }, /Only owner accounts/],
    ["a paid tier", { accountTier: "agency" }, /free plan/],
    ["an unknown field", { isAdmin: true }, /Unknown field: isAdmin/],
    ["a short password", { password: "12345" }, /at least 6 characters/],
    ["a bad email", { email: "not-an-email" }, /valid email/],
    ["a wrong-typed name", { fullName: 42 }, /name/i],
  ];
  for (const [label, extra, message] of cases) {
    it(`refuses registration with ${label}`, async () => {
      const email = uniqueEmail();
      const response = await register(email, extra);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(message);
      expect(await User.query().findOne({ email })).toBeUndefined();
    });
  }

  it("answers malformed JSON with 400 and an oversized body with 413", async () => {
    const agent = server.agent();
    const malformed = await agent.request("POST", "/api/register", {
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe("Malformed JSON in request body");
    const huge = await agent.post("/api/register", {
      email: uniqueEmail(),
      fullName: "x".repeat(200_000),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.message).toBe("Request body is too large");
  });

  it("refuses missing fields", async () => {
    const response = await server.agent().post("/api/login", {});
    expect(response.status).toBe(400);
    expect(response.body.message).toBeTruthy();
  });
});

describe("cross-site writes", () => {
  it("refuses a write from another origin, JSON or multipart", async () => {
    const owner = await signUpOwner(server);
    const json = await owner.agent.patch(
      "/api/user/profile",
      { fullName: "Hacked" },
      { origin: "https://evil.example" },
    );
    expect(json.status).toBe(403);
    const form = new FormData();
    form.set("profilePicture", new Blob(["x"]), "a.png");
    const multipart = await owner.agent.request("POST", "/api/user/profile-picture", {
      body: form,
      headers: { origin: "https://evil.example" },
    });
    expect(multipart.status).toBe(403);
    const fetchSite = await owner.agent.request("POST", "/api/logout", {
      headers: { origin: "", "sec-fetch-site": "cross-site" },
    });
    expect(fetchSite.status).toBe(403);
    expect((await owner.agent.get("/api/user")).body.fullName).toBe("Olivia Owner");
  });
});

describe("server basics", () => {
  it("reports health with the database", async () => {
    const response = await server.agent().get("/healthz");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: "ok" });
  });

  it("sends security headers", async () => {
    const response = await server.agent().get("/api/user");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("content-security-policy")).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    const page = await server.agent().get("/auth");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("cross-origin-opener-policy")).toBe("same-origin");
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const response = await server.agent().get("/api/does-not-exist");
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: "Not found" });
  });
});
