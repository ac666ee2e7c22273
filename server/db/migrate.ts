import type { Knex } from "knex";
import { migrations } from "../migrations";
import { ADVISORY_LOCKS, whileHoldingAdvisoryLock } from "./advisory-lock";
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
 * an index on a large table may take longer than any request should. On PostgreSQL, under an
 * advisory lock: instances starting together on an empty database take turns, the first
 * migrates and the others find nothing left to do (knex's own lock table would instead fail
 * them with "Migration table is already locked", and creating that table races).
 */
export async function migrateToLatest(db: Knex): Promise<void> {
  const url = connectionUrl(db);
  if (!url) {
    await latest(db);
    return;
  }
  await whileHoldingAdvisoryLock(url, ADVISORY_LOCKS.migrations, async () => {
    const runner = createDatabase({ url, poolMax: 1, timeouts: false });
    try {
      await latest(runner);
    } finally {
      await runner.destroy();
    }
  });
}

const latest = (db: Knex) => db.migrate.latest({ migrationSource: new ListedMigrationSource() });
