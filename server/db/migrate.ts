import type { Knex } from "knex";
import { migrations } from "../migrations";
import { ADVISORY_LOCKS } from "./advisory-lock";
import { connectionUrl, createDatabase } from "./connection";

/** Migrations are listed in code so that they work the same bundled and in tests. */
class ListedMigrationSource implements Knex.MigrationSource<string> {
  async getMigrations() {
    return Object.keys(migrations).sort();
  }
  getMigrationName(name: string) {
    return name;
  }
  async getMigration(name: string) {
    const migration = migrations[name];
    if (!migration) throw new Error(`Unknown migration ${name}`);
    return migration;
  }
}

/**
 * Runs on a connection of its own without the app's statement timeouts (PostgreSQL): building
 * an index on a large table may take longer than any request should.
 */
export async function migrateToLatest(db: Knex): Promise<void> {
  const url = connectionUrl(db);
  if (!url) {
    await db.migrate.latest({ migrationSource: new ListedMigrationSource() });
    return;
  }
  const runner = createDatabase({ url, poolMax: 1, timeouts: false });
  const locker = createDatabase({ url, poolMax: 1, timeouts: false });
  try {
    // Several instances starting together on an empty database would each create knex's
    // tables and all but one fail ("relation knex_migrations already exists"): one migrates
    // under this lock while the others wait, then find nothing left to do. A transaction's
    // lock: released at its end, or when a crashed instance's connection goes.
    await locker.transaction(async (trx) => {
      await trx.raw("select pg_advisory_xact_lock(?)", [ADVISORY_LOCKS.migrations]);
      await runner.migrate.latest({ migrationSource: new ListedMigrationSource() });
    });
  } finally {
    await runner.destroy();
    await locker.destroy();
  }
}
