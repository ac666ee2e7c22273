import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClock } from "../../tests/support/clock";
import { addJoinedClient, setTier } from "../../tests/support/conversations";
import { testDatabase } from "../../tests/support/database";
import { type SignedInOwner, signUpOwner } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { pdfOfSize, storedKeys, uploadFile } from "../../tests/support/storage-files";
import type { Database } from "../db/connection";
import { Client, Message, StoredFile, User } from "../models";

const JOB = "deleted-clients-purge";
const DAY = 86_400_000;

// Two instances on one database and one DATA_DIR, as in production (with S3 they share the
// bucket); the purge takes every due client of its database, so this file has its own.
let db: Database;
let clock: TestClock;
let first: TestServer;
let second: TestServer;
beforeAll(async () => {
  db = await testDatabase({ isolated: true });
  clock = new TestClock();
  first = await startTestServer({ db, clock });
  second = await startTestServer({ db, clock, env: { DATA_DIR: first.dataDir } });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
  await db?.destroy();
});

/** An owner keeping deleted clients `days` days, and a joined client with messages and a file. */
async function deletedClientWithFile(days: number) {
  const owner = await signUpOwner(first);
  await setTier(owner.id, "pro");
  const saved = await owner.agent.request("PATCH", "/api/workspace/retention", { json: { days } });
  expect(saved.status).toBe(200);
  const client = await addJoinedClient(first, owner);
  await client.agent.post(`/api/clients/${client.id}/messages`, { content: "the brief" });
  const upload = await uploadFile(owner.agent, client.id, pdfOfSize(400), "brief.pdf");
  expect(upload.status).toBe(201);
  const file = await StoredFile.query().findOne({ clientId: client.id });
  expect(storedKeys(first.dataDir)).toContain(file!.storedName);
  expect((await owner.agent.delete(`/api/clients/${client.id}`)).status).toBe(200);
  return { owner, client, storedName: file!.storedName };
}

/** Every instance runs the job at once, twice each. */
const purgeEverywhere = () =>
  Promise.all(
    [first, second].flatMap((server) => [server.jobs.runOnce(JOB), server.jobs.runOnce(JOB)]),
  );

const purgedEntries = async (owner: SignedInOwner) =>
  (await db("audit_entries").where({ workspaceId: owner.id, action: "client.purged" })).length;

describe("the deleted-clients purge", () => {
  it("removes a deleted client for good once its days have passed, once across instances", async () => {
    const { owner, client, storedName } = await deletedClientWithFile(7);

    clock.advance(7 * DAY - 60_000);
    await purgeEverywhere();
    expect(await Client.query().findById(client.id)).toBeDefined();
    expect(storedKeys(first.dataDir)).toContain(storedName);
    expect((await owner.agent.get("/api/clients/deleted")).body).toHaveLength(1);

    clock.advance(60_000);
    await purgeEverywhere();
    expect(await Client.query().findById(client.id)).toBeUndefined();
    expect(await Message.query().where("clientId", client.id).resultSize()).toBe(0);
    expect(await User.query().findById(client.userId)).toBeUndefined();
    expect(storedKeys(first.dataDir).filter((key) => key.startsWith(storedName))).toEqual([]);
    expect(await purgedEntries(owner)).toBe(1);
    expect((await owner.agent.get("/api/clients/deleted")).body).toEqual([]);
    expect((await owner.agent.post(`/api/clients/${client.id}/restore`)).status).toBe(404);
    // The client's address can be a client again.
    const again = await owner.agent.post("/api/clients", { name: "Again", email: client.email });
    expect(again.status).toBe(201);
  });

  it("follows the workspace's days as they are now, counted from each deletion", async () => {
    const { owner, client } = await deletedClientWithFile(90);
    clock.advance(20 * DAY);
    await purgeEverywhere();
    expect(await Client.query().findById(client.id)).toBeDefined();

    const shorter = await owner.agent.request("PATCH", "/api/workspace/retention", {
      json: { days: 14 },
    });
    expect(shorter.status).toBe(200);
    await purgeEverywhere();
    expect(await Client.query().findById(client.id)).toBeUndefined();
    expect(await purgedEntries(owner)).toBe(1);
  });

  it("leaves restored and live clients alone", async () => {
    const { owner, client } = await deletedClientWithFile(7);
    expect((await owner.agent.post(`/api/clients/${client.id}/restore`)).status).toBe(200);
    clock.advance(30 * DAY);
    await purgeEverywhere();
    const kept = await Client.query().findById(client.id);
    expect(kept?.deletedAt).toBeNull();
    expect((await owner.agent.get(`/api/clients/${client.id}/messages`)).body).toHaveLength(2);
  });
});
