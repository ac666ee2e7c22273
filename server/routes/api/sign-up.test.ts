import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../../tests/support/clock";
import { testDatabase } from "../../../tests/support/database";
import { signUpOwner, uniqueEmail } from "../../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import { codeFrom } from "../../../tests/support/smtp";
import { RETRY_DELAYS_MS } from "../../mail/outbox";
import { User } from "../../models";

// Issue 23: a sign-up can neither take over an address that waits for verification nor tell,
// by its answer or the time it takes, whether the address has an account; and its code is
// not lost when the SMTP server refuses for a while.

let server: TestServer;
beforeAll(async () => {
  // A database of its own: one test locks the users table.
  server = await startTestServer({ db: await testDatabase({ isolated: true }) });
});
afterAll(async () => {
  await server?.close();
  await server?.db.destroy();
});

const signUp = (agent: TestAgent, email: string, password: string, fullName: string) =>
  agent.post("/api/register", { email, password, fullName, role: "owner", accountTier: "free" });

const signIn = (email: string, password: string) =>
  server.agent().post("/api/login", { username: email, password });

const verificationMails = (email: string) =>
  server.smtp.mailsTo(email).filter((mail) => mail.subject.includes("verification code"));

describe("a second sign-up for an address waiting for verification", () => {
  it("changes nothing of it: password, name and code stay, and the same code is sent again", async () => {
    const email = uniqueEmail("real");
    const real = server.agent();
    const stranger = server.agent();
    const first = await signUp(real, email, "real person's password", "Rita Real");
    await server.mailSettled();
    const [firstMail] = verificationMails(email);
    const code = codeFrom(firstMail!);

    const second = await signUp(stranger, email, "stranger's password", "Mallory");
    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    await server.mailSettled();

    // The owner of the mailbox got the same code again; nothing else changed.
    const mails = verificationMails(email);
    expect(mails).toHaveLength(2);
    expect(codeFrom(mails[1]!)).toBe(code);
    const account = await User.query(server.db).findOne({ email, role: "owner" });
    expect(account?.fullName).toBe("Rita Real");
    expect((await signIn(email, "stranger's password")).status).toBe(401);
    expect((await signIn(email, "real person's password")).status).toBe(403);

    const verified = await real.post("/api/verify-email", { email, code });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ fullName: "Rita Real", hasPassword: true });
    expect((await signIn(email, "real person's password")).status).toBe(200);
    expect((await signIn(email, "stranger's password")).status).toBe(401);
  });

  it("when a stranger signed up first, the browser that proves the mailbox sets the password", async () => {
    const email = uniqueEmail("late");
    const stranger = server.agent();
    const real = server.agent();
    await signUp(stranger, email, "stranger's password", "Mallory");
    await signUp(real, email, "real person's password", "Rita Real");
    await server.mailSettled();
    const codes = verificationMails(email).map(codeFrom);
    expect(codes).toHaveLength(2);
    expect(codes[1]).toBe(codes[0]);

    const verified = await real.post("/api/verify-email", { email, code: codes[0] });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ fullName: "Rita Real", hasPassword: true });
    expect((await signIn(email, "stranger's password")).status).toBe(401);
    expect((await signIn(email, "real person's password")).status).toBe(200);
  });

  it("verified from a browser that signed up for neither, keeps no password anyone typed", async () => {
    const email = uniqueEmail("elsewhere");
    await signUp(server.agent(), email, "stranger's password", "Mallory");
    await signUp(server.agent(), email, "real person's password", "Rita Real");
    await server.mailSettled();
    const [code] = verificationMails(email).map(codeFrom);

    const phone = server.agent();
    const verified = await phone.post("/api/verify-email", { email, code });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ email, hasPassword: false });
    expect((await phone.get("/api/user")).status).toBe(200);
    expect((await signIn(email, "stranger's password")).status).toBe(401);
    expect((await signIn(email, "real person's password")).status).toBe(401);
  });

  it("sent once, a code is not sent again past five mails an hour", async () => {
    const email = uniqueEmail("capped");
    for (let i = 0; i < 5; i += 1) {
      const answer = await signUp(server.agent(), email, "a password", "Cap");
      expect(answer.status).toBe(201);
    }
    await server.mailSettled();
    expect(verificationMails(email)).toHaveLength(5);
    expect(new Set(verificationMails(email).map(codeFrom)).size).toBe(1);
    // The sixth is refused by the per-address limit (as for any address); past it, the cap.
    const resent = await server.agent().post("/api/resend-verification", { email });
    expect(resent.status).toBe(429);
  });
});

describe("the answer to a sign-up", () => {
  it("comes before any account work, alike for new, waiting and verified addresses", async () => {
    const verified = await signUpOwner(server);
    const waiting = uniqueEmail("waiting");
    await signUp(server.agent(), waiting, "a password", "Wanda Waiting");
    await server.mailSettled();
    const fresh = uniqueEmail("fresh");
    const before = {
      verified: server.smtp.mailsTo(verified.email).length,
      waiting: verificationMails(waiting).length,
    };

    // While nobody can read or write users, every sign-up is still answered at once: the
    // answer cannot depend on (nor take the time of) what the address has.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const lock = server.db.transaction(async (trx) => {
      await trx.raw("lock table users in access exclusive mode");
      locked();
      await held;
    });
    await isLocked;
    let answers: { status: number; body: unknown }[];
    try {
      answers = await Promise.all(
        [fresh, waiting, verified.email].map((email) =>
          signUp(server.agent(), email, "a password", "Someone"),
        ),
      );
    } finally {
      release();
      await lock;
    }
    for (const answer of answers) {
      expect(answer.status).toBe(201);
      expect(Object.keys(answer.body as object)).toEqual(["requiresVerification", "email"]);
    }

    await server.mailSettled();
    expect(verificationMails(fresh)).toHaveLength(1);
    expect(verificationMails(waiting)).toHaveLength(before.waiting + 1);
    const notices = server.smtp.mailsTo(verified.email).slice(before.verified);
    expect(notices.map((mail) => mail.subject)).toEqual([
      expect.stringContaining("tried to sign up"),
    ]);
  });
});

describe("sign-up while the SMTP server refuses", () => {
  it("answers as usual, and the code arrives once the server takes mail again", async () => {
    const email = uniqueEmail("outage");
    const agent = server.agent();
    server.smtp.refuseNext = 3;
    const answer = await signUp(agent, email, "a password", "Otto Outage");
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ requiresVerification: true, email });
    await server.mailSettled();
    expect(verificationMails(email)).toHaveLength(0);

    // The outbox tries again with growing waits until the server answers.
    const clock = server.clock as TestClock;
    for (const wait of RETRY_DELAYS_MS.slice(0, 3)) {
      clock.advance(wait);
      await server.jobs.runOnce("mail-outbox");
    }
    const [mail] = verificationMails(email);
    expect(mail).toBeDefined();
    const verified = await agent.post("/api/verify-email", { email, code: codeFrom(mail!) });
    expect(verified.status).toBe(200);
  });
});
