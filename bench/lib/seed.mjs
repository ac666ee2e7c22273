// Writing benchmark data straight into the database (the benches measure reading and
// delivery, not sign-up): owners, their clients' users, the conversations and a session each.
// `query(sql, params)` runs on either backend: pg on PostgreSQL, PGlite on the embedded one.
import { createHash, randomBytes, randomUUID } from "node:crypto";

const sha256 = (value) => createHash("sha256").update(value).digest("hex");

export function makeSeed(count) {
  const tag = randomBytes(3).toString("hex");
  return Array.from({ length: count }, (_, i) => ({
    i,
    tag,
    ownerId: randomUUID(),
    clientUserId: randomUUID(),
    clientId: randomUUID(),
    ownerToken: randomBytes(32).toString("base64url"),
    clientToken: randomBytes(32).toString("base64url"),
  }));
}

/** Owners, client users, clients and one session each, in four statements. */
export async function seedConversations(query, seeded) {
  const users = seeded.flatMap((c) => [
    {
      id: c.ownerId,
      email: `bench-owner-${c.tag}-${c.i}@example.test`,
      name: `Owner ${c.i}`,
      role: "owner",
    },
    {
      id: c.clientUserId,
      email: `bench-client-${c.tag}-${c.i}@example.test`,
      name: `Client ${c.i}`,
      role: "client",
    },
  ]);
  await query(
    `insert into users (id, email, full_name, role, email_verified_at)
     select (e->>'id')::uuid, e->>'email', e->>'name', e->>'role', case when e->>'role' = 'owner' then now() end
       from json_array_elements($1::json) e`,
    [JSON.stringify(users)],
  );
  const clients = seeded.map((c) => ({
    id: c.clientId,
    owner: c.ownerId,
    user: c.clientUserId,
    name: `Client ${c.i}`,
    email: `bench-client-${c.tag}-${c.i}@example.test`,
  }));
  await query(
    `insert into clients (id, owner_id, user_id, name, email, joined_at)
     select (e->>'id')::uuid, (e->>'owner')::uuid, (e->>'user')::uuid, e->>'name', e->>'email', now()
       from json_array_elements($1::json) e`,
    [JSON.stringify(clients)],
  );
  // Each client user names its client (issue 26, contacts).
  await query(
    `update users u set client_id = (e->>'id')::uuid
       from json_array_elements($1::json) e where u.id = (e->>'user')::uuid`,
    [JSON.stringify(clients)],
  );
  const sessions = seeded.flatMap((c) => [
    { hash: sha256(c.ownerToken), user: c.ownerId },
    { hash: sha256(c.clientToken), user: c.clientUserId },
  ]);
  await query(
    `insert into sessions (id_hash, user_id, expires_at, user_agent)
     select e->>'hash', (e->>'user')::uuid, now() + interval '30 days', 'bench'
       from json_array_elements($1::json) e`,
    [JSON.stringify(sessions)],
  );
}

export async function withPostgres(url, work) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work((sql, params) => client.query(sql, params));
  } finally {
    await client.end();
  }
}

export async function withPglite(dir, work) {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(dir);
  await db.waitReady;
  try {
    return await work((sql, params) => db.query(sql, params));
  } finally {
    await db.close();
  }
}
