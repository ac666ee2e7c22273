import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClock } from "../../tests/support/clock";
import { addJoinedClient, type JoinedClient, setTier } from "../../tests/support/conversations";
import { testDatabase } from "../../tests/support/database";
import { type SignedInOwner, signUpOwner } from "../../tests/support/factories";
import { minimalPdf } from "../../tests/support/pdf";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { linkIn } from "../../tests/support/smtp";
import { downloadZip, sha256 } from "../../tests/support/zip-download";
import type { Database } from "../db/connection";
import { DataExport } from "../models";

// Issue 28, point 4: an export over EXPORT_INLINE_MAX_BYTES (lowered here to 100 bytes) answers
// 202, is built once by the data-exports job on whichever instance claims it, and is mailed
// as a link that downloads the ZIP for 24 hours, then answers 410 and its bytes are deleted.
// The job takes every queued export of its database: this file has one of its own.

let db: Database;
let clock: TestClock;
let first: TestServer;
let second: TestServer;
let owner: SignedInOwner;
let client: JoinedClient;
const hashes = new Map<string, string>();
const today = new Date().toISOString().slice(0, 10);
const SMALL = { EXPORT_INLINE_MAX_BYTES: "100" };

beforeAll(async () => {
  db = await testDatabase({ isolated: true });
  clock = new TestClock();
  first = await startTestServer({ db, clock, env: SMALL });
  // A second instance: same database, same files, the first one's mail server and, as behind
  // a balancer, the same public address (whichever instance builds the ZIP writes the link).
  second = await startTestServer({
    db,
    clock,
    env: {
      ...SMALL,
      APP_URL: first.url,
      DATA_DIR: first.dataDir,
      SMTP_URL: `smtp://127.0.0.1:${first.smtp.port}`,
    },
  });
  owner = await signUpOwner(first, "Olivia Owner");
  await setTier(owner.id, "pro");
  client = await addJoinedClient(first, owner, { name: "Big Client" });
  for (const label of ["one", "two"]) {
    const bytes = minimalPdf(`large export ${label}`);
    const body = new FormData();
    body.append(
      "file",
      new Blob([new Uint8Array(bytes)], { type: "application/pdf" }),
      `${label}.pdf`,
    );
    const sent = await owner.agent.request("POST", `/api/clients/${client.id}/upload`, { body });
    expect(sent.status).toBe(201);
    hashes.set(`files/${today}-${label}.pdf/v1-${label}.pdf`, sha256(bytes));
  }
  await owner.agent.post(`/api/clients/${client.id}/messages`, {
    content: "Only the team reads this",
    visibility: "internal",
  });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
  await db?.destroy();
});

/** A pass of the job on both instances at once (twice each), then both outboxes. */
async function passEverywhere() {
  await Promise.all(
    [first, second].flatMap((server) => [
      server.jobs.runOnce("data-exports"),
      server.jobs.runOnce("data-exports"),
    ]),
  );
  for (const server of [first, second]) {
    await server.jobs.runOnce("mail-outbox");
    await server.mailSettled();
  }
}

const exportMails = (address: string) =>
  first.smtp.mailsTo(address).filter((mail) => mail.subject.includes("export"));

describe("a large export", () => {
  it("answers 202, is built once across instances and mailed as a link that works for 24 hours", async () => {
    const asked = await downloadZip(`${first.url}/api/clients/${client.id}/export`, owner.agent);
    expect(asked.status).toBe(202);
    expect(asked.json).toEqual({
      message: expect.stringMatching(
        /we'll build it in the background and email you a link .*24 hours/,
      ),
    });
    // Asking again while it waits queues nothing more.
    expect(
      (await downloadZip(`${second.url}/api/clients/${client.id}/export`, owner.agent)).status,
    ).toBe(202);
    expect(await DataExport.query(db).where({ requestedBy: owner.id })).toHaveLength(1);

    await passEverywhere();
    await passEverywhere();
    const mails = exportMails(owner.email);
    expect(mails.map((mail) => mail.subject)).toEqual([
      "Your ClientDesk export of Big Client is ready",
    ]);
    const link = linkIn(mails[0]!, "Download the export");
    expect(link).toMatch(new RegExp(`^${first.url}/api/exports/[A-Za-z0-9_-]{43}$`));

    // Whoever has the link, signed in or not, on either instance.
    for (const url of [link, link.replace(first.url, second.url)]) {
      const zip = await downloadZip(url);
      expect(zip.status).toBe(200);
      expect(zip.headers.get("content-type")).toBe("application/zip");
      expect(zip.headers.get("content-disposition")).toBe(
        `attachment; filename="clientdesk-big-client-${today}.zip"`,
      );
      const files = new Map(
        [...zip.entries]
          .filter(([name]) => name.startsWith("files/"))
          .map(([name, bytes]) => [name, sha256(bytes)]),
      );
      expect(files).toEqual(hashes);
      expect(zip.entries.get("transcript.html")!.toString()).toContain("Only the team reads this");
    }

    const row = await DataExport.query(db).findOne({ requestedBy: owner.id });
    expect(row).toMatchObject({ status: "ready", attempts: 1 });
    expect(await first.services.storage.stat(row!.storedName!)).not.toBeNull();

    // The hourly storage sweep keeps the ZIP: its row names it.
    clock.advance(2 * 60 * 60_000);
    await first.jobs.runOnce("storage-sweep");
    expect(await first.services.storage.stat(row!.storedName!)).not.toBeNull();
    expect((await downloadZip(link)).status).toBe(200);

    clock.advance(22 * 60 * 60_000 + 60_000);
    const late = await downloadZip(link);
    expect(late.status).toBe(410);
    expect(late.json).toEqual({
      message:
        "This download link has expired (links work for 24 hours). Start a new export in ClientDesk.",
    });
    await passEverywhere();
    expect(await first.services.storage.stat(row!.storedName!)).toBeNull();
    expect((await downloadZip(link)).status).toBe(410);
    expect((await downloadZip(`${first.url}/api/exports/${"x".repeat(43)}`)).json).toEqual({
      message: "This download link is not valid. Start a new export in ClientDesk.",
    });
  });

  it("mails a contact their own data without internal notes", async () => {
    const asked = await downloadZip(`${first.url}/api/portal/export`, client.agent);
    expect(asked.status).toBe(202);
    await passEverywhere();
    const mail = exportMails(client.email).at(-1)!;
    expect(mail.subject).toBe("Your ClientDesk export of Big Client is ready");
    const zip = await downloadZip(linkIn(mail, "Download the export"));
    expect(zip.status).toBe(200);
    expect(zip.entries.get("transcript.html")!.toString()).not.toContain(
      "Only the team reads this",
    );
    expect(
      new Map(
        [...zip.entries]
          .filter(([name]) => name.startsWith("files/"))
          .map(([n, b]) => [n, sha256(b)]),
      ),
    ).toEqual(hashes);
  });
});
