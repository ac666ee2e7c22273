import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClock } from "../../tests/support/clock";
import { addJoinedClient, setTier } from "../../tests/support/conversations";
import { testDatabase } from "../../tests/support/database";
import { signUpOwner } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import type { TestSmtpServer } from "../../tests/support/smtp";
import type { Database } from "../db/connection";
import { claimDue } from "../commands/send-unanswered-notifications";

const JOB = "unanswered-messages";

/** One sweep, then one pass of the mail outbox, as the server's timers would run them. */
async function sweep(server: TestServer) {
  await server.jobs.runOnce(JOB);
  await server.jobs.runOnce("mail-outbox");
}

// Several servers on one database, as in production behind a load balancer; the sweep takes
// every due row of its database, so this file has a database of its own.
let db: Database;
beforeAll(async () => {
  db = await testDatabase({ isolated: true });
});
afterAll(() => db?.destroy());

/** Servers sharing the database and the clock, all mailing into one SMTP server. */
async function instances(count: number, clock: TestClock, smtp?: TestSmtpServer) {
  const first = await startTestServer({
    db,
    clock,
    ...(smtp ? { env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } } : {}),
  });
  const mailbox = smtp ?? first.smtp;
  const rest: TestServer[] = [];
  for (let i = 1; i < count; i += 1) {
    rest.push(
      await startTestServer({ db, clock, env: { SMTP_URL: `smtp://127.0.0.1:${mailbox.port}` } }),
    );
  }
  return { servers: [first, ...rest], mailbox };
}

const notificationsTo = (smtp: TestSmtpServer, address: string) =>
  smtp.mailsTo(address).filter((mail) => /new messages? from/i.test(mail.subject));

describe("several server instances on one database", () => {
  it("send each email exactly once when they sweep at the same time", async () => {
    const clock = new TestClock();
    const { servers, mailbox } = await instances(3, clock);
    try {
      const [a] = servers as [TestServer];
      const owner = await signUpOwner(a);
      await setTier(owner.id, "agency");
      const clients = [];
      for (let i = 0; i < 12; i += 1) {
        // Spread the work over the instances: each has its own sessions but the same data.
        clients.push(
          await addJoinedClient(servers[i % servers.length] as TestServer, owner, {
            name: `Client ${i}`,
          }),
        );
      }
      for (const client of clients) {
        await owner.agent.post(`/api/clients/${client.id}/messages`, {
          content: `For ${client.name}`,
        });
        await client.agent.post(`/api/clients/${client.id}/messages`, {
          content: `From ${client.name}`,
        });
      }
      // The client's message answered the owner's, so only the owner's email is due.
      clock.advanceMinutes(5);
      await Promise.all(servers.flatMap((server) => [sweep(server), sweep(server)]));
      await Promise.all(servers.map(sweep));

      const toOwner = notificationsTo(mailbox, owner.email);
      expect(toOwner).toHaveLength(clients.length);
      expect(new Set(toOwner.map((mail) => mail.text.match(/From Client \d+/)?.[0])).size).toBe(
        clients.length,
      );
      for (const client of clients) expect(notificationsTo(mailbox, client.email)).toHaveLength(0);
    } finally {
      for (const server of servers) await server.close();
    }
  });
});

describe("a restart", () => {
  it("in the middle of the delay loses nothing and repeats nothing", async () => {
    const clock = new TestClock();
    const before = await startTestServer({ db, clock });
    const mailbox = before.smtp;
    const owner = await signUpOwner(before);
    const client = await addJoinedClient(before, owner);
    await owner.agent.post(`/api/clients/${client.id}/messages`, { content: "Before the restart" });
    clock.advanceMinutes(3);
    await sweep(before);
    expect(notificationsTo(mailbox, client.email)).toHaveLength(0);
    await before.jobs.stop();

    const { servers } = await instances(1, clock, mailbox);
    const after = servers[0] as TestServer;
    clock.advanceMinutes(2);
    await sweep(after);
    expect(notificationsTo(mailbox, client.email)).toHaveLength(1);
    await after.close();

    // And after another restart, nothing is sent again.
    const { servers: again } = await instances(1, clock, mailbox);
    clock.advanceMinutes(60);
    if (again[0]) await sweep(again[0]);
    await again[0]?.close();
    expect(notificationsTo(mailbox, client.email)).toHaveLength(1);
    await before.close();
  });

  it("after taking rows but before sending: the email goes out once the claim runs out", async () => {
    const clock = new TestClock();
    const crashed = await startTestServer({ db, clock });
    const mailbox = crashed.smtp;
    const owner = await signUpOwner(crashed);
    const client = await addJoinedClient(crashed, owner);
    await client.agent.post(`/api/clients/${client.id}/messages`, { content: "Taken, then lost?" });
    clock.advanceMinutes(5);
    // The instance takes the due rows, then dies before sending anything.
    const now = clock.now();
    const claimed = await claimDue(
      crashed.services,
      now,
      new Date(now.getTime() + 10 * 60_000),
      100,
    );
    expect(claimed.map((row) => row.clientId)).toContain(client.id);

    const { servers } = await instances(1, clock, mailbox);
    const survivor = servers[0] as TestServer;
    try {
      await sweep(survivor);
      expect(notificationsTo(mailbox, owner.email)).toHaveLength(0);
      clock.advanceMinutes(10);
      await sweep(survivor);
      await sweep(survivor);
      const mails = notificationsTo(mailbox, owner.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.text).toContain("Taken, then lost?");
    } finally {
      await survivor.close();
      await crashed.close();
    }
  });
});
