import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClock } from "../../tests/support/clock";
import { addJoinedContact } from "../../tests/support/contacts";
import { addJoinedClient, setTier } from "../../tests/support/conversations";
import { testDatabase } from "../../tests/support/database";
import { signUpOwner } from "../../tests/support/factories";
import { minimalPdf } from "../../tests/support/pdf";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { linkIn, type TestSmtpServer } from "../../tests/support/smtp";
import type { Database } from "../db/connection";

// Several servers on one database, as in production; the reminder pass takes every due reminder
// of its database, so this file has a database of its own.
let db: Database;
beforeAll(async () => {
  db = await testDatabase({ isolated: true });
});
afterAll(() => db?.destroy());

const HOUR = 60 * 60_000;
// Zones without daylight saving time, so that the expected hours hold in any season.
const TOKYO = "Asia/Tokyo"; // UTC+9: 09:00 there is 00:00 UTC
const BOGOTA = "America/Bogota"; // UTC-5: 09:00 there is 14:00 UTC

/** Moves the shared clock to an instant. */
function moveTo(clock: TestClock, at: Date) {
  clock.advance(at.getTime() - clock.now().getTime());
}

/** A UTC instant: `days` after the date `base` (YYYY-MM-DD) at `hours` UTC. */
function utc(base: string, days: number, hours: number): Date {
  return new Date(Date.parse(`${base}T00:00:00Z`) + days * 24 * HOUR + hours * HOUR);
}

/** One reminder pass on every instance at once (twice each), then their outboxes. */
async function passEverywhere(servers: TestServer[]) {
  await Promise.all(
    servers.flatMap((server) => [
      server.jobs.runOnce("due-reminders"),
      server.jobs.runOnce("due-reminders"),
    ]),
  );
  for (const server of servers) {
    await server.jobs.runOnce("mail-outbox");
    await server.mailSettled();
  }
}

const reminders = (smtp: TestSmtpServer, address: string) =>
  smtp.mailsTo(address).filter((mail) => /^Due (today|tomorrow)/.test(mail.subject));
const subjects = (smtp: TestSmtpServer, address: string) =>
  reminders(smtp, address).map((mail) => mail.subject);

async function instances(clock: TestClock) {
  const first = await startTestServer({ db, clock });
  const second = await startTestServer({
    db,
    clock,
    env: { SMTP_URL: `smtp://127.0.0.1:${first.smtp.port}` },
  });
  return { servers: [first, second], mailbox: first.smtp };
}

/**
 * An agency owner's client company of two people, in Tokyo and in Bogotá, and a PDF sent for
 * approval due three days from today (UTC).
 */
async function fileDueInThreeDays(server: TestServer, fileName: string) {
  const owner = await signUpOwner(server, "Olivia Owner");
  await setTier(owner.id, "agency");
  const client = await addJoinedClient(server, owner, { name: "Carla Client" });
  const contact = await addJoinedContact(server, owner, client.id, { name: "Dora Director" });
  for (const [agent, timeZone] of [
    [client.agent, TOKYO],
    [contact.agent, BOGOTA],
  ] as const) {
    const saved = await agent.request("PUT", "/api/user/time-zone", { json: { timeZone } });
    expect(saved.status).toBe(200);
  }
  const today = server.clock.now().toISOString().slice(0, 10);
  const dueDate = utc(today, 3, 0).toISOString().slice(0, 10);
  const body = new FormData();
  body.append("requiresFeedback", "true");
  body.append("dueDate", dueDate);
  body.append(
    "file",
    new Blob([new Uint8Array(minimalPdf())], { type: "application/pdf" }),
    fileName,
  );
  const upload = await owner.agent.request("POST", `/api/clients/${client.id}/upload`, { body });
  expect(upload.status, JSON.stringify(upload.body)).toBe(201);
  return { owner, client, contact, dueDate, fileId: upload.body.id as string };
}

describe("due-date reminders on two instances", () => {
  it("reach each contact at 09:00 in their own zone, once each, and stop at the decision", async () => {
    const clock = new TestClock();
    const { servers, mailbox } = await instances(clock);
    try {
      const [a] = servers as [TestServer];
      const { owner, client, contact, dueDate, fileId } = await fileDueInThreeDays(a, "Poster.pdf");
      // An open mark: the reminder lists it under the file, as the approval email does.
      const marked = await owner.agent.post(`/api/messages/${fileId}/versions/1/annotations`, {
        page: 2,
        x: 0.5,
        y: 0.5,
        width: 0,
        height: 0,
        comment: "Bigger logo",
      });
      expect(marked.status).toBe(201);

      // A minute before 09:00 in Tokyo the day before: nothing yet.
      moveTo(clock, utc(dueDate, -1, -1 / 60));
      await passEverywhere(servers);
      expect(reminders(mailbox, client.email)).toHaveLength(0);

      // 09:00 in Tokyo: Carla's "due tomorrow"; Bogotá is still at 19:00 the day before.
      moveTo(clock, utc(dueDate, -1, 1 / 60));
      await passEverywhere(servers);
      await passEverywhere(servers);
      expect(subjects(mailbox, client.email)).toEqual([
        "Due tomorrow: Poster.pdf waits for your approval",
      ]);
      expect(reminders(mailbox, contact.email)).toHaveLength(0);

      const mail = reminders(mailbox, client.email)[0]!;
      const written = new Intl.DateTimeFormat("en-US", {
        timeZone: "UTC",
        weekday: "long",
        month: "long",
        day: "numeric",
        year: "numeric",
      }).format(new Date(`${dueDate}T12:00:00Z`));
      expect(mail.text).toContain(`asked for your decision on Poster.pdf by ${written}`);
      expect(mail.text).toContain("1 open mark on this file:\n- Mark 1, page 2: Bigger logo");
      expect(linkIn(mail, "Approve")).toMatch(/\/client\/feedback\//);
      expect(linkIn(mail, "Needs Work")).toMatch(/\/client\/feedback\//);
      // Whichever instance wrote it (each test server has its own APP_URL; production's share one).
      expect(servers.map((server) => `${server.url}/client/${client.id}`)).toContain(
        linkIn(mail, "Open the conversation"),
      );
      // The agency's branding, as the client's other mails.
      expect(mail.html).toContain("Olivia Owner");

      // 09:00 in Bogotá the day before: Dora's "due tomorrow".
      moveTo(clock, utc(dueDate, -1, 14 + 1 / 60));
      await passEverywhere(servers);
      expect(subjects(mailbox, contact.email)).toEqual([
        "Due tomorrow: Poster.pdf waits for your approval",
      ]);

      // 09:00 in Tokyo on the day: Carla's "due today".
      moveTo(clock, utc(dueDate, 0, 1 / 60));
      await passEverywhere(servers);
      expect(subjects(mailbox, client.email)).toEqual([
        "Due tomorrow: Poster.pdf waits for your approval",
        "Due today: Poster.pdf waits for your approval",
      ]);

      // Carla approves; Dora's 09:00 on the day then brings nothing.
      const decided = await client.agent.request("PATCH", `/api/messages/${fileId}/feedback`, {
        json: { feedbackStatus: "approved" },
      });
      expect(decided.status).toBe(200);
      moveTo(clock, utc(dueDate, 0, 14 + 1 / 60));
      await passEverywhere(servers);
      expect(reminders(mailbox, contact.email)).toHaveLength(1);
      expect(reminders(mailbox, client.email)).toHaveLength(2);
    } finally {
      for (const server of servers) await server.close();
    }
  });

  it("send a reminder that fell due while no server ran, once, but not a stale one", async () => {
    const clock = new TestClock();
    const { servers, mailbox } = await instances(clock);
    try {
      const [a] = servers as [TestServer];
      const { client, contact, dueDate } = await fileDueInThreeDays(a, "Menu.pdf");
      // Both 09:00s of the day before passed while everything was down: it is 14:30 UTC,
      // 23:30 in Tokyo (still the day before there) and 09:30 in Bogotá.
      moveTo(clock, utc(dueDate, -1, 14.5));
      await passEverywhere(servers);
      for (const person of [client, contact])
        expect(subjects(mailbox, person.email)).toEqual([
          "Due tomorrow: Menu.pdf waits for your approval",
        ]);

      // Down again until the afternoon after the due date: Tokyo's day is over (no "due
      // today" any more), Bogotá's is not.
      moveTo(clock, utc(dueDate, 0, 16));
      await passEverywhere(servers);
      expect(reminders(mailbox, client.email)).toHaveLength(1);
      expect(subjects(mailbox, contact.email)).toEqual([
        "Due tomorrow: Menu.pdf waits for your approval",
        "Due today: Menu.pdf waits for your approval",
      ]);
    } finally {
      for (const server of servers) await server.close();
    }
  });
});
