import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabase } from "../../tests/support/database";
import { signUpOwner } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { statementsDuring } from "../../tests/support/statements";
import { connectionUrl, createDatabase, type Database } from "../db/connection";
import { CACHED_ROWS_CHANNEL } from "../db/cached-rows";
import { Session, User } from "../models";
import type { HubMessage } from "../realtime/hub";
import { SessionCache } from "./session-cache";

let server: TestServer;
beforeAll(async () => {
  // On PostgreSQL its own database: other test files' writes to users and sessions are
  // announced to every instance listening on a database, and would empty this cache.
  server = await startTestServer({ db: await testDatabase({ isolated: true }) });
});
afterAll(() => server?.close());

const queriesDuring = async (action: () => Promise<unknown>) =>
  (await statementsDuring(server.db, action)).length;

describe("session cache", () => {
  it("serves repeated requests of one session without reading the database", async () => {
    const owner = await signUpOwner(server);
    await owner.agent.get("/api/user");
    expect(await queriesDuring(() => owner.agent.get("/api/user"))).toBe(0);
  });

  it("forgets a signed-out session at once", async () => {
    const owner = await signUpOwner(server);
    const cookie = owner.agent.cookieHeader;
    await owner.agent.get("/api/user");
    await owner.agent.post("/api/logout");
    expect((await server.agent().get("/api/user", { cookie })).status).toBe(401);
  });

  it("shows a changed user at once, whichever way the row was changed", async () => {
    const owner = await signUpOwner(server);
    await owner.agent.get("/api/user");
    await User.query().patch({ accountTier: "agency" }).where("id", owner.id);
    expect((await owner.agent.get("/api/user")).body.accountTier).toBe("agency");
  });

  it("ends other sessions at once on a password change", async () => {
    const owner = await signUpOwner(server);
    const other = server.agent();
    await other.post("/api/login", { username: owner.email, password: owner.password });
    expect((await other.get("/api/user")).status).toBe(200);
    await owner.agent.patch("/api/user/password", {
      currentPassword: owner.password,
      newPassword: "changed-pw",
    });
    expect((await other.get("/api/user")).status).toBe(401);
  });

  it("keeps serving the session after a message send, which reads users but writes neither table", async () => {
    const owner = await signUpOwner(server);
    const added = await owner.agent.post("/api/clients", {
      name: "Cache Client",
      email: "cache-client@example.test",
    });
    await owner.agent.get("/api/user");
    await owner.agent.post(`/api/clients/${added.body.id}/messages`, { content: "hello" });
    expect(await queriesDuring(() => owner.agent.get("/api/user"))).toBe(0);
  });

  it("shows a user changed by raw SQL inside a CTE at once", async () => {
    const owner = await signUpOwner(server);
    await owner.agent.get("/api/user");
    await server.db.raw(
      `with changed as (update "users" set full_name = 'Renamed Owner' where id = ? returning id) select id from changed`,
      [owner.id],
    );
    expect((await owner.agent.get("/api/user")).body.fullName).toBe("Renamed Owner");
  });
});

/** A hub stand-in: what the cache hears, and whether it listens. */
function fakeAnnouncements() {
  const listeners = new Set<(message: HubMessage) => void>();
  return {
    listening: true,
    subscribe(listener: (message: HubMessage) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    announce(message: HubMessage) {
      for (const listener of listeners) listener(message);
    },
  };
}

describe("session cache and the database's announcements", () => {
  const now = Date.now();
  const signedIn = {
    session: Session.fromJson(
      { idHash: "h", userId: "u", expiresAt: new Date(now + 60_000), createdAt: new Date(now) },
      { skipValidation: true },
    ),
    user: User.fromJson({ id: "u" }, { skipValidation: true }),
  };

  it("forgets everything when rows changed anywhere, or when announcements may have been missed", () => {
    const announcements = fakeAnnouncements();
    const cache = new SessionCache(server.db, announcements);
    for (const message of [
      { kind: "rows_changed", table: "users" },
      { kind: "rows_changed", table: "sessions" },
      // A contact's language follows their client's (issue 29).
      { kind: "rows_changed", table: "clients" },
      { kind: "resync" },
    ] as const) {
      cache.keep("token", signedIn, now, cache.mark);
      expect(cache.get("token", now)).toBeDefined();
      announcements.announce(message);
      expect(cache.get("token", now)).toBeUndefined();
    }
    cache.keep("token", signedIn, now, cache.mark);
    announcements.announce({ kind: "rows_changed", table: "client_assignees" });
    expect(cache.get("token", now)).toBeDefined();
  });

  it("does not keep what was read while a change was announced", () => {
    const announcements = fakeAnnouncements();
    const cache = new SessionCache(server.db, announcements);
    const mark = cache.mark;
    announcements.announce({ kind: "rows_changed", table: "users" });
    cache.keep("token", signedIn, now, mark);
    expect(cache.get("token", now)).toBeUndefined();
  });

  it("serves and keeps nothing while the hub is not listening", () => {
    const announcements = fakeAnnouncements();
    const cache = new SessionCache(server.db, announcements);
    cache.keep("token", signedIn, now, cache.mark);
    announcements.listening = false;
    expect(cache.get("token", now)).toBeUndefined();
    cache.keep("other", signedIn, now, cache.mark);
    announcements.listening = true;
    expect(cache.get("other", now)).toBeUndefined();
    expect(cache.get("token", now)).toBeDefined();
  });

  it("trusts an entry for 30 seconds at most, and never past the session's expiry", () => {
    const cache = new SessionCache(server.db, fakeAnnouncements());
    cache.keep("token", signedIn, now, cache.mark);
    expect(cache.get("token", now + 29_999)).toBeDefined();
    expect(cache.get("token", now + 30_000)).toBeUndefined();
    const expiring = {
      ...signedIn,
      session: Session.fromJson(
        { ...signedIn.session, expiresAt: new Date(now + 5_000) },
        { skipValidation: true },
      ),
    };
    cache.keep("token", expiring, now, cache.mark);
    expect(cache.get("token", now + 4_999)).toBeDefined();
    expect(cache.get("token", now + 5_000)).toBeUndefined();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("session cache across instances", () => {
  // The second instance has its own database handle, as another process would: it does not
  // hear the first one's statements, only the database's announcements.
  let otherDb: Database;
  let other: TestServer;
  beforeAll(async () => {
    otherDb = createDatabase({ url: connectionUrl(server.db)!, poolMax: 2 });
    other = await startTestServer({ db: otherDb });
  });
  afterAll(async () => {
    await other?.close();
    await otherDb?.destroy();
  });

  it("the database announces updates and deletes of users, sessions and clients, at commit", async () => {
    const listener = new pg.Client({ connectionString: connectionUrl(server.db)! });
    await listener.connect();
    const heard: string[] = [];
    listener.on("notification", (notification) =>
      heard.push(`${notification.channel} ${notification.payload}`),
    );
    await listener.query(`LISTEN ${CACHED_ROWS_CHANNEL}`);
    try {
      const owner = await signUpOwner(server);
      // A round trip delivers what committed before it (the sign-up's own announcements).
      await listener.query("select 1");
      const before = heard.length;
      await server.db.transaction(async (trx) => {
        await trx("users").where("id", owner.id).update({ fullName: "Announced" });
        await trx("sessions").where("userId", owner.id).delete();
        await trx("clients").where("ownerId", owner.id).update({ name: "Announced" });
        // Not yet: NOTIFY is delivered when the transaction commits.
        await listener.query("select 1");
        expect(heard).toHaveLength(before);
      });
      await expect
        .poll(() => heard.slice(before).sort())
        .toEqual([
          `${CACHED_ROWS_CHANNEL} clients`,
          `${CACHED_ROWS_CHANNEL} sessions`,
          `${CACHED_ROWS_CHANNEL} users`,
        ]);
    } finally {
      await listener.end();
    }
  });

  it("another instance shows a changed user as soon as the change is announced", async () => {
    const owner = await signUpOwner(server);
    const onOther = () => other.agent().get("/api/user", { cookie: owner.agent.cookieHeader });
    expect((await onOther()).body.fullName).not.toBe("Changed Elsewhere");
    await server.db("users").where("id", owner.id).update({ fullName: "Changed Elsewhere" });
    await expect.poll(async () => (await onOther()).body.fullName).toBe("Changed Elsewhere");
  });

  it("another instance refuses a session signed out on this one", async () => {
    const owner = await signUpOwner(server);
    const cookie = owner.agent.cookieHeader;
    expect((await other.agent().get("/api/user", { cookie })).status).toBe(200);
    await owner.agent.post("/api/logout");
    await expect
      .poll(async () => (await other.agent().get("/api/user", { cookie })).status)
      .toBe(401);
  });
});
