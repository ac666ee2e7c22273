import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../tests/support/clock";
import { addJoinedClient } from "../../tests/support/conversations";
import { testDatabase, usingPostgres } from "../../tests/support/database";
import { signUpOwner } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import {
  pdfOfSize,
  smallPng,
  storedKeys,
  storedPath,
  uploadFile,
  uploadImage,
} from "../../tests/support/storage-files";
import { connectionUrl, createDatabase, type Database } from "../db/connection";
import { StoredFile, User } from "../models";

const JOB = "storage-sweep";
const logLines: string[] = [];
let db: Database;
let server: TestServer;
let clock: TestClock;

beforeAll(async () => {
  // On PostgreSQL the sweep takes an advisory lock of its database: a database of its own.
  db = await testDatabase({ isolated: true });
  server = await startTestServer({
    db,
    env: { LOG_LEVEL: "info" },
    logDestination: { write: (line) => logLines.push(line) },
  });
  clock = server.clock as TestClock;
});
afterAll(async () => {
  await server?.close();
  await db?.destroy();
});

const exists = (key: string) => existsSync(storedPath(server.dataDir, key));

/** A file in storage as a crash or a lost row would leave it. */
function leaveInStorage(key: string, bytes = "left behind") {
  const file = storedPath(server.dataDir, key);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  return key;
}

const randomKey = (suffix: string) => `${crypto.randomUUID().replaceAll("-", "")}${suffix}`;

async function ownerWithFile() {
  const owner = await signUpOwner(server);
  const client = await addJoinedClient(server, owner);
  const uploaded = await uploadFile(client.agent, client.id, pdfOfSize(500));
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  const [file] = await StoredFile.query().where("clientId", client.id);
  return { owner, client, storedName: file!.storedName };
}

describe("deleting a client", () => {
  it("deletes the bytes of its files and their previews, without a warning", async () => {
    const { owner, client, storedName } = await ownerWithFile();
    const ownersFile = await uploadFile(owner.agent, client.id, pdfOfSize(700), "plan.pdf");
    expect(ownersFile.status).toBe(201);
    const names = (await StoredFile.query().where("clientId", client.id)).map(
      (row) => row.storedName,
    );
    expect(names).toHaveLength(2);
    expect(names).toContain(storedName);
    await server.services.storage.put(`${storedName}.preview`, Buffer.from("a preview"));
    for (const name of names) expect(exists(name)).toBe(true);
    logLines.length = 0;

    expect((await owner.agent.delete(`/api/clients/${client.id}`)).status).toBe(200);

    for (const name of names) expect(exists(name)).toBe(false);
    expect(exists(`${storedName}.preview`)).toBe(false);
    expect(logLines.filter((line) => /could not delete/.test(line))).toEqual([]);
  });
});

describe("the storage sweep", () => {
  it("removes partial files and files no row names once an hour old, and nothing else", async () => {
    const { owner, storedName } = await ownerWithFile();
    expect(
      (
        await uploadImage(
          owner.agent,
          "/api/user/profile-picture",
          "profilePicture",
          await smallPng(),
        )
      ).status,
    ).toBe(200);
    const picture = (await User.query().findById(owner.id).throwIfNotFound()).profilePicture!;
    const preview = leaveInStorage(`${storedName}.preview`);
    const partial = leaveInStorage(randomKey(".pdf.partial"));
    const orphan = leaveInStorage(randomKey(".pdf"));
    const orphanPreview = leaveInStorage(`${randomKey(".png")}.preview`);
    const kept = [storedName, preview, picture];

    // Younger than an hour: an upload may still be writing it or about to add its row.
    await server.jobs.runOnce(JOB);
    for (const key of [...kept, partial, orphan, orphanPreview]) expect(exists(key)).toBe(true);

    clock.advanceMinutes(61);
    const fresh = leaveInStorage(randomKey(".pdf"));
    utimesSync(storedPath(server.dataDir, fresh), clock.now(), clock.now());
    logLines.length = 0;
    await server.jobs.runOnce(JOB);

    for (const key of [partial, orphan, orphanPreview]) expect(exists(key), key).toBe(false);
    for (const key of [...kept, fresh]) expect(exists(key), key).toBe(true);
    const done = logLines
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === "storage sweep done");
    expect(done).toMatchObject({ partial: 1 });
    expect(done.orphaned).toBeGreaterThanOrEqual(2);
    // What is kept is still served.
    expect((await owner.agent.get(`/api/download/${picture}`)).status).toBe(200);
    expect(storedKeys(server.dataDir)).toEqual(expect.arrayContaining(kept));
  });

  it("is a retry for bytes a delete could not remove: they go once no row names them", async () => {
    const { owner, client, storedName } = await ownerWithFile();
    // As if the delete after the commit had failed: the row is gone, the bytes are not.
    await StoredFile.query().delete().where("storedName", storedName);
    expect(exists(storedName)).toBe(true);
    clock.advanceMinutes(61);
    await server.jobs.runOnce(JOB);
    expect(exists(storedName)).toBe(false);
    expect((await owner.agent.get(`/api/clients/${client.id}/attachments`)).status).toBe(200);
  });

  describe.skipIf(!usingPostgres)("on several instances", () => {
    it("sweeps on one instance at a time (an advisory lock)", async () => {
      const orphan = leaveInStorage(randomKey(".pdf"));
      clock.advanceMinutes(61);
      // Another instance holds the sweep's lock on this database.
      const url = connectionUrl(db) as string;
      const other = createDatabase({ url, poolMax: 1 });
      try {
        await other.transaction(async (trx) => {
          await trx.raw("select pg_advisory_xact_lock(92001)");
          await server.jobs.runOnce(JOB);
          expect(exists(orphan)).toBe(true);
        });
        await server.jobs.runOnce(JOB);
        expect(exists(orphan)).toBe(false);
      } finally {
        await other.destroy();
      }
    });
  });
});
