import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabase } from "../../tests/support/database";
import { signUpOwner } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";

/**
 * A rolling upgrade: a newer build's migration adds a column to users while this instance
 * keeps serving. Its session read is a prepared statement on PostgreSQL; it must go on
 * answering (a statement prepared on `users.*` fails: "cached plan must not change result
 * type"). Its own database: the test alters users.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("the session read during a rolling upgrade", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ db: await testDatabase({ isolated: true }) });
  });
  afterAll(async () => {
    await server?.close();
    await server?.db.destroy();
  });

  it("keeps signed-in people signed in after another build adds a column to users", async () => {
    const owner = await signUpOwner(server);
    // Every pooled connection prepares the read (each request reads, the cache emptied).
    const reads = () =>
      Promise.all(
        Array.from({ length: 10 }, async () => {
          server.services.sessionCache.clear();
          return (await owner.agent.get("/api/user")).status;
        }),
      );
    expect(await reads()).toEqual(Array(10).fill(200));
    await server.db.raw("alter table users add column added_by_a_newer_build text");
    expect(await reads()).toEqual(Array(10).fill(200));
  });
});
