import { afterAll, beforeAll, expect, it } from "vitest";
import { addClient } from "../../tests/support/conversations";
import { testDatabase } from "../../tests/support/database";
import { startConversation } from "../../tests/support/factories";
import { startTestServer, type TestServer } from "../../tests/support/server";
import * as migration from "./20261129090000_notification_recipients";

let server: TestServer;
beforeAll(async () => {
  // Takes the migration down and up again: a database no other file sees.
  server = await startTestServer({ db: await testDatabase({ isolated: true }) });
});
afterAll(async () => {
  await server?.close();
  await server?.db.destroy();
});

const rowsOf = async (clientId: string) => {
  const { rows } = await server.db.raw(
    // The person's column exists only after the migration: read through the row's JSON.
    `select recipient_role as side, to_jsonb(ns) ->> 'recipient_user_id' as person,
            last_read_seq::int as read, due_at is not null as due
       from notification_states ns where client_id = ? order by recipient_role`,
    [clientId],
  );
  return rows;
};

it("gives a side's existing read state and pending email to its person, and back", async () => {
  const { owner, client, path } = await startConversation(server, { tier: "pro" });
  const waiting = await client.agent.post(`${path}/messages`, { content: "Hello?" });
  expect(waiting.status).toBe(201);
  const answered = await owner.agent.post(`${path}/messages`, { content: "Hi!" });
  expect(answered.status).toBe(201);
  const unjoined = await addClient(owner, { name: "Not Yet" });

  await migration.down(server.db);
  // One row per side, as the previous release kept them; a row of a client never joined too.
  expect(await rowsOf(client.id)).toEqual([
    { side: "client", person: null, read: 1, due: true },
    { side: "owner", person: null, read: 2, due: false },
  ]);
  await server.db.raw(
    "insert into notification_states (client_id, recipient_role) values (?, 'client')",
    [unjoined.id],
  );

  await migration.up(server.db);
  expect(await rowsOf(client.id)).toEqual([
    { side: "client", person: client.userId, read: 1, due: true },
    { side: "owner", person: owner.id, read: 2, due: false },
  ]);
  expect(await rowsOf(unjoined.id)).toEqual([]);
});
