import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TestClock } from "../../tests/support/clock";
import { testDatabase } from "../../tests/support/database";
import { signUpOwner } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { TestSmtpServer } from "../../tests/support/smtp";
import { TcpProxy } from "../../tests/support/tcp-proxy";
import type { Database } from "../db/connection";
import { GIVE_UP_AFTER_MS, LEASE_MS, RETRY_DELAYS_MS } from "./outbox";

// Issue 23: every outgoing email goes through the durable outbox: nothing is lost when the
// SMTP server is down, refuses, or the instance stops or dies; several instances send each
// mail once; a mail that cannot go out for a day is given up, logged and counted.

const METRICS_TOKEN = "metrics-token-for-outbox-tests";

let db: Database;
let smtp: TestSmtpServer;
/** Between the app and the SMTP server: cut() is a mail server that is down. */
let relay: TcpProxy;
let relayUrl: string;
const servers: TestServer[] = [];

beforeAll(async () => {
  db = await testDatabase();
  smtp = new TestSmtpServer();
  await smtp.start();
  ({ proxy: relay, url: relayUrl } = await TcpProxy.inFrontOf(`smtp://127.0.0.1:${smtp.port}`));
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  await relay.resume();
  smtp.refuseNext = 0;
});
afterAll(async () => {
  await relay?.close();
  await smtp?.stop();
  await db?.destroy();
});

/** An instance mailing through the relay; instances given one queue and clock share their mail. */
async function instance(options: { queue?: string; clock?: TestClock; logLines?: string[] } = {}) {
  const lines = options.logLines;
  const server = await startTestServer({
    db,
    clock: options.clock,
    mailQueue: options.queue,
    env: {
      SMTP_URL: relayUrl,
      METRICS_TOKEN,
      ...(lines ? { LOG_LEVEL: "info" } : {}),
    },
    ...(lines ? { logDestination: { write: (line: string) => void lines.push(line) } } : {}),
  });
  servers.push(server);
  return server;
}

const mail = (to: string, subject: string) => ({
  to,
  subject,
  text: subject,
  html: `<p>${subject}</p>`,
});
const address = () => `someone-${randomUUID().slice(0, 8)}@example.test`;

async function rowsTo(to: string) {
  const rows: {
    status: string;
    attempts: number;
    lastError: string | null;
    message: { to: string };
  }[] = await db("outgoing_mails").select("status", "attempts", "lastError", "message");
  return rows.filter((row) => row.message.to === to);
}

async function outboxGauge(server: TestServer): Promise<Record<string, number>> {
  const answer = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await answer.text();
  const gauge: Record<string, number> = {};
  for (const [, state, value] of text.matchAll(/^clientdesk_mail_outbox\{state="(\w+)"\} (\d+)$/gm))
    gauge[state as string] = Number(value);
  return gauge;
}

describe("the SMTP server down", () => {
  it("keeps a reset code written meanwhile, and sends it once the server is back", async () => {
    const server = await instance();
    const owner = await signUpOwner({ agent: () => server.agent(), smtp });
    await relay.cut();
    const asked = await server.agent().post("/api/forgot-password", { email: owner.email });
    expect(asked.status).toBe(200);
    await server.mailSettled();
    const [waiting] = await rowsTo(owner.email);
    expect(waiting).toMatchObject({ status: "pending", attempts: 1 });
    expect(waiting?.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(await outboxGauge(server)).toEqual({ pending: 1, dead: 0 });

    await relay.resume();
    (server.clock as TestClock).advance(RETRY_DELAYS_MS[0]);
    await server.jobs.runOnce("mail-outbox");
    const resets = smtp.mailsTo(owner.email).filter((m) => m.subject.includes("reset"));
    expect(resets).toHaveLength(1);
    expect(resets[0]?.text).toMatch(/\b\d{6}\b/);
    expect(await rowsTo(owner.email)).toHaveLength(0);
    expect(await outboxGauge(server)).toEqual({ pending: 0, dead: 0 });
  });
});

describe("giving up", () => {
  it("after a day of refusals: dead, logged as an error, counted, and deleted 30 days later", async () => {
    const lines: string[] = [];
    const server = await instance({ logLines: lines });
    const clock = server.clock as TestClock;
    const to = address();
    smtp.refuseNext = 10_000;
    await server.services.outbox.enqueue(db, mail(to, "Never taken"), "verification");
    await server.mailSettled();
    const longest = RETRY_DELAYS_MS.at(-1) as number;
    for (let waited = 0; waited < GIVE_UP_AFTER_MS; waited += longest) {
      expect((await rowsTo(to))[0]?.status).toBe("pending");
      clock.advance(longest);
      await server.jobs.runOnce("mail-outbox");
    }
    const [dead] = await rowsTo(to);
    expect(dead?.status).toBe("dead");
    expect(dead?.lastError).toMatch(/451/);
    expect(smtp.mailsTo(to)).toHaveLength(0);
    const given = lines.map((line) => JSON.parse(line)).find((line) => /given up/.test(line.msg));
    expect(given).toMatchObject({ level: 50, kind: "verification" });
    expect(JSON.stringify(given)).not.toContain(to);
    expect(await outboxGauge(server)).toEqual({ pending: 0, dead: 1 });

    // Dead mail is not retried, and goes after 30 days.
    smtp.refuseNext = 0;
    clock.advance(RETRY_DELAYS_MS[0]);
    await server.jobs.runOnce("mail-outbox");
    expect(smtp.mailsTo(to)).toHaveLength(0);
    clock.advance(30 * 24 * 60 * 60_000);
    await server.jobs.runOnce("dead-mail-cleanup");
    expect(await rowsTo(to)).toHaveLength(0);
  });

  it("at once when the server refuses the recipient for good (5xx to RCPT TO)", async () => {
    const server = await instance();
    const to = address();
    smtp.unknownRecipients.add(to);
    try {
      await server.services.outbox.enqueue(db, mail(to, "No such mailbox"), "invite");
      await server.mailSettled();
      expect(await rowsTo(to)).toMatchObject([{ status: "dead", attempts: 1 }]);
    } finally {
      smtp.unknownRecipients.delete(to);
    }
  });
});

describe("restarts and instances", () => {
  it("mail written by an instance that stops before it could send goes out from the next one", async () => {
    const clock = new TestClock();
    const queue = `outbox-restart-${randomUUID()}`;
    const before = await instance({ queue, clock });
    await relay.cut();
    const to = address();
    await before.services.outbox.enqueue(db, mail(to, "Across a restart"), "invite");
    await before.mailSettled();
    await servers.splice(servers.indexOf(before), 1)[0]?.close();
    expect(await rowsTo(to)).toMatchObject([{ status: "pending" }]);

    await relay.resume();
    const after = await instance({ queue, clock });
    clock.advance(RETRY_DELAYS_MS[0]);
    await after.jobs.runOnce("mail-outbox");
    expect(smtp.mailsTo(to).map((m) => m.subject)).toEqual(["Across a restart"]);
  });

  it("mail an instance took and then died with goes out once its lease runs out", async () => {
    const clock = new TestClock();
    const queue = `outbox-lease-${randomUUID()}`;
    const survivor = await instance({ queue, clock });
    const to = address();
    // Written and taken by an instance that died before sending (its lease on the row).
    const taken = new Date(clock.now().getTime() + LEASE_MS);
    await db("outgoing_mails").insert({
      queue,
      kind: "invite",
      message: JSON.stringify(mail(to, "Taken, then lost?")),
      attempts: 1,
      nextAttemptAt: taken,
      createdAt: clock.now(),
    });
    await survivor.jobs.runOnce("mail-outbox");
    expect(smtp.mailsTo(to)).toHaveLength(0);
    clock.advance(LEASE_MS);
    await survivor.jobs.runOnce("mail-outbox");
    await survivor.jobs.runOnce("mail-outbox");
    expect(smtp.mailsTo(to).map((m) => m.subject)).toEqual(["Taken, then lost?"]);
  });

  it("several instances sending at once send each mail exactly once", async () => {
    const clock = new TestClock();
    const queue = `outbox-instances-${randomUUID()}`;
    const instances = [
      await instance({ queue, clock }),
      await instance({ queue, clock }),
      await instance({ queue, clock }),
    ];
    const to = address();
    const subjects = Array.from({ length: 45 }, (_, i) => `Mail ${i}`);
    // Written while the server is down, so that all of them wait for the same retry.
    await relay.cut();
    await db.transaction(async (trx) => {
      for (const subject of subjects)
        await (instances[0] as TestServer).services.outbox.enqueue(
          trx,
          mail(to, subject),
          "invite",
        );
    });
    for (const server of instances) await server.mailSettled();
    await relay.resume();

    clock.advance(RETRY_DELAYS_MS[0]);
    await Promise.all(
      instances.flatMap((server) => [
        server.jobs.runOnce("mail-outbox"),
        server.services.outbox.deliverDue(),
      ]),
    );
    await Promise.all(instances.map((server) => server.jobs.runOnce("mail-outbox")));
    const received = smtp.mailsTo(to).map((m) => m.subject);
    expect(received).toHaveLength(subjects.length);
    expect(new Set(received)).toEqual(new Set(subjects));
  });
});
