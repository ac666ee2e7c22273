import { describe, expect, it } from "vitest";
import { createDatabase } from "./connection";
import { migrateToLatest } from "./migrate";
import { emptyPostgres } from "../../tests/support/database";

/**
 * Instances behind a balancer start together on an empty database: every one of them must
 * come up, the database migrated once (before the lock, two of three failed creating knex's
 * own tables).
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "migrations started by three instances at once",
  () => {
    it("all succeed, and each migration runs once", async () => {
      const shared = process.env.TEST_DATABASE_URL!;
      const scratch = await emptyPostgres(shared, "test_migrate");
      const instances = [1, 2, 3].map(() => createDatabase({ url: scratch.url, poolMax: 2 }));
      try {
        const results = await Promise.allSettled(instances.map((db) => migrateToLatest(db)));
        expect(
          results.map((result) => (result.status === "rejected" ? String(result.reason) : "ok")),
        ).toEqual(["ok", "ok", "ok"]);
        const { rows } = await instances[0]!.raw(
          "select count(*)::int as runs, count(distinct name)::int as names from knex_migrations",
        );
        expect(rows[0].runs).toBe(rows[0].names);
      } finally {
        for (const db of instances) await db.destroy();
        await scratch.drop();
      }
    });
  },
);
