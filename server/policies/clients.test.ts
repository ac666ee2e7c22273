import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient } from "../../tests/support/conversations";
import { signUpOwner } from "../../tests/support/factories";
import { testDatabase } from "../../tests/support/database";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { statementsDuring } from "../../tests/support/statements";
import { Client } from "../models";
import { findClient } from "./clients";

let server: TestServer;
beforeAll(async () => {
  // On PostgreSQL its own database: other files' changes to clients, announced to every
  // instance on a database, would empty the cache the tests below count on.
  server = await startTestServer({ db: await testDatabase({ isolated: true }) });
});
afterAll(() => server?.close());

describe("findClient", () => {
  it("reads the client as the model reads it, every column included", async () => {
    const owner = await signUpOwner(server);
    const added = await addJoinedClient(server, owner, { name: "Carla Client" });
    const { db } = server.services;
    const found = await findClient(server.services, added.id);
    const modelRow = await Client.query(db).findById(added.id);
    expect(found).toBeInstanceOf(Client);
    // A column added to clients later must be added to findClient's list too; it also reads
    // who handles the client (issue 26), which the model's columns do not hold.
    expect({ ...found }).toEqual({ ...modelRow, assigneeIds: [], leadUserId: null });
  });

  it("finds nothing for an unknown or malformed id", async () => {
    expect(await findClient(server.services, randomUUID())).toBeUndefined();
    expect(await findClient(server.services, "not-a-uuid")).toBeUndefined();
    expect(await findClient(server.services, undefined)).toBeUndefined();
  });

  it("finds nothing for a deleted client kept for a restore (issue 28), and finds it restored", async () => {
    const owner = await signUpOwner(server);
    const added = await addJoinedClient(server, owner, { name: "Kept Client" });
    expect(await findClient(server.services, added.id)).toBeDefined();
    await Client.query().patch({ deletedAt: new Date() }).where("id", added.id);
    expect(await findClient(server.services, added.id)).toBeUndefined();
    await Client.query().patch({ deletedAt: null }).where("id", added.id);
    expect((await findClient(server.services, added.id))?.deletedAt).toBeNull();
  });

  it("reads a conversation's client once, and again as soon as the row changes or goes", async () => {
    const owner = await signUpOwner(server);
    const added = await addJoinedClient(server, owner, { name: "Cached Client" });
    const { services } = server;
    await findClient(services, added.id);
    let found: Client | undefined;
    expect(
      await statementsDuring(server.db, async () => {
        found = await findClient(services, added.id);
      }),
    ).toEqual([]);
    expect(found?.name).toBe("Cached Client");
    // Each caller gets its own model: changing one changes no other read.
    found!.name = "Changed in memory";
    expect((await findClient(services, added.id))?.name).toBe("Cached Client");

    await server.db("clients").where("id", added.id).update({ name: "Renamed Client" });
    expect((await findClient(services, added.id))?.name).toBe("Renamed Client");
    await server.db.raw("delete from clients where id = ?", [added.id]);
    expect(await findClient(services, added.id)).toBeUndefined();
  });
});
