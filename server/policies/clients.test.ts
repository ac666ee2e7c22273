import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient } from "../../tests/support/conversations";
import { signUpOwner } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { Client } from "../models";
import { findClient } from "./clients";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe("findClient", () => {
  it("reads the client as the model reads it, every column included", async () => {
    const owner = await signUpOwner(server);
    const added = await addJoinedClient(server, owner, { name: "Carla Client" });
    const { db } = server.services;
    const found = await findClient(db, added.id);
    const modelRow = await Client.query(db).findById(added.id);
    expect(found).toBeInstanceOf(Client);
    // A column added to clients later must be added to findClient's list too.
    expect({ ...found }).toEqual({ ...modelRow });
  });

  it("finds nothing for an unknown or malformed id", async () => {
    const { db } = server.services;
    expect(await findClient(db, randomUUID())).toBeUndefined();
    expect(await findClient(db, "not-a-uuid")).toBeUndefined();
    expect(await findClient(db, undefined)).toBeUndefined();
  });
});
