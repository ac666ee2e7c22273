import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClock } from "../../tests/support/clock";
import { addJoinedClient, setTier } from "../../tests/support/conversations";
import { testDatabase } from "../../tests/support/database";
import { type SignedInOwner, signUpOwner } from "../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../tests/support/server";
import { TestPushService } from "../../tests/support/push-endpoint";
import { addStaff } from "../../tests/support/team";
import { TestSocket } from "../../tests/support/ws-client";
import type { Database } from "../db/connection";

// Scheduled send (issue 28): several servers on one database, as in production; the job takes
// every due scheduled message of its database, so this file has a database of its own.
let db: Database;
const pushService = new TestPushService();
let pushOrigin: string;
beforeAll(async () => {
  db = await testDatabase({ isolated: true });
  pushOrigin = await pushService.start();
});
afterAll(async () => {
  await pushService.stop();
  await db?.destroy();
});

const JOB = "scheduled-messages";
const MINUTE = 60_000;

const inMinutes = (clock: TestClock, minutes: number) =>
  new Date(clock.now().getTime() + minutes * MINUTE).toISOString();

async function schedule(agent: TestAgent, clientId: string, content: string, sendAt: string) {
  const answer = await agent.post(`/api/clients/${clientId}/messages`, { content, sendAt });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; createdAt: string };
}

const texts = async (agent: TestAgent, clientId: string) =>
  (await agent.get(`/api/clients/${clientId}/messages`)).body.map(
    (message: { content: string }) => message.content,
  ) as string[];

async function owner(server: TestServer): Promise<SignedInOwner> {
  const signedUp = await signUpOwner(server, "Olivia Owner");
  await setTier(signedUp.id, "agency");
  return signedUp;
}

describe("scheduled messages on two instances", () => {
  it("go out once each when both run the job at once, as if typed then: live and by email", async () => {
    const clock = new TestClock();
    const a = await startTestServer({ db, clock });
    const b = await startTestServer({
      db,
      clock,
      env: { SMTP_URL: `smtp://127.0.0.1:${a.smtp.port}` },
    });
    const olivia = await owner(a);
    const client = await addJoinedClient(a, olivia, { name: "Carla Client" });
    const socket = await TestSocket.open(a.url, { cookie: client.agent.cookieHeader });
    try {
      const contents = ["First", "Second", "Third", "Fourth", "Fifth"].map(
        (word) => `${word} scheduled note`,
      );
      const scheduled = [];
      for (const content of contents)
        scheduled.push(await schedule(olivia.agent, client.id, content, inMinutes(clock, 2)));
      // Not yet due: nothing goes.
      await Promise.all([a.jobs.runOnce(JOB), b.jobs.runOnce(JOB)]);
      expect(await texts(client.agent, client.id)).toEqual([]);

      clock.advanceMinutes(3);
      await Promise.all([a, b, a, b].map((server) => server.jobs.runOnce(JOB)));
      await Promise.all([a.jobs.runOnce(JOB), b.jobs.runOnce(JOB)]);
      expect(await texts(client.agent, client.id)).toEqual(contents);
      expect((await olivia.agent.get(`/api/clients/${client.id}/scheduled`)).body).toEqual([]);

      // Live, as a typed message: the client's open page gets it with its event.
      const arrived = await socket.waitFor(
        (event) => event.type === "new_message" && event.message?.content === contents[4],
      );
      expect(arrived.message).toMatchObject({ senderRole: "owner", content: contents[4] });
      // Dated when sent.
      const sent = (await client.agent.get(`/api/clients/${client.id}/messages`)).body;
      expect(Date.parse(sent[0].createdAt)).toBeGreaterThan(Date.parse(scheduled[0]!.createdAt));

      // The unanswered-message email, after the client's delay (5 minutes), once.
      clock.advanceMinutes(6);
      for (const server of [a, b]) {
        await server.jobs.runOnce("unanswered-messages");
        await server.jobs.runOnce("mail-outbox");
        await server.mailSettled();
      }
      const mails = a.smtp
        .mailsTo(client.email)
        .filter((mail) => /new messages? from/i.test(mail.subject));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain("Fifth scheduled note");
    } finally {
      socket.close();
      await a.close();
      await b.close();
    }
  });

  it("are dropped, never sent, when the client is deleted or the author lost the client", async () => {
    const clock = new TestClock();
    const server = await startTestServer({ db, clock });
    try {
      const olivia = await owner(server);
      const gone = await addJoinedClient(server, olivia, { name: "Gone Client" });
      const kept = await addJoinedClient(server, olivia, { name: "Kept Client" });
      const member = await addStaff(server, olivia, "member");
      const assigned = await olivia.agent.put(`/api/clients/${kept.id}/assignees`, {
        userIds: [member.id],
      });
      expect(assigned.status).toBe(200);
      await schedule(olivia.agent, gone.id, "To a deleted client", inMinutes(clock, 2));
      await schedule(member.agent, kept.id, "From an unassigned member", inMinutes(clock, 2));
      await schedule(olivia.agent, kept.id, "From the owner", inMinutes(clock, 2));

      expect((await olivia.agent.delete(`/api/clients/${gone.id}`)).status).toBe(200);
      const unassigned = await olivia.agent.put(`/api/clients/${kept.id}/assignees`, {
        userIds: [],
      });
      expect(unassigned.status).toBe(200);

      clock.advanceMinutes(3);
      await server.jobs.runOnce(JOB);
      expect(await texts(kept.agent, kept.id)).toEqual(["From the owner"]);
      const left = await db("scheduled_messages").whereIn("client_id", [gone.id, kept.id]);
      expect(left).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

/** The conversation's texts as stored (the agents of a stopped server cannot ask any more). */
const stored = async (clientId: string) =>
  (await db("messages").where("client_id", clientId).orderBy("seq")).map(
    (row: { content: string }) => row.content,
  );

describe("a scheduled message's push", () => {
  it("reaches the client's phone as a typed message's would", async () => {
    const clock = new TestClock();
    const server = await startTestServer({ db, clock, env: { PUSH_TEST_ORIGINS: pushOrigin } });
    pushService.vapidPublicKey = server.services.config.vapid.publicKey;
    try {
      const olivia = await owner(server);
      const client = await addJoinedClient(server, olivia, { name: "Carla Client" });
      const phone = pushService.subscribe();
      expect((await client.agent.post("/api/push/subscriptions", phone)).status).toBe(201);
      await schedule(olivia.agent, client.id, "Your files are ready", inMinutes(clock, 5));
      clock.advanceMinutes(6);
      await server.jobs.runOnce(JOB);
      const [push] = await pushService.waitForPushes(phone.endpoint);
      expect(push?.payload).toMatchObject({ title: "Olivia Owner", body: "Your files are ready" });
    } finally {
      await server.close();
    }
  });
});

describe("a restart", () => {
  it("loses nothing and repeats nothing", async () => {
    const clock = new TestClock();
    const before = await startTestServer({ db, clock });
    const olivia = await owner(before);
    const client = await addJoinedClient(before, olivia);
    await schedule(olivia.agent, client.id, "Across a restart", inMinutes(clock, 10));
    await before.close();

    // Due while no server ran: the next one sends it at its first pass.
    clock.advanceMinutes(30);
    const after = await startTestServer({ db, clock });
    try {
      await after.jobs.runOnce(JOB);
      expect(await stored(client.id)).toEqual(["Across a restart"]);
    } finally {
      await after.close();
    }
    const again = await startTestServer({ db, clock });
    try {
      clock.advanceMinutes(60);
      await again.jobs.runOnce(JOB);
      expect(await stored(client.id)).toEqual(["Across a restart"]);
    } finally {
      await again.close();
    }
  });
});
