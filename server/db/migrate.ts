import type { Knex } from "knex";
import { migrations } from "../migrations";
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
  const runner = url ? createDatabase({ url, poolMax: 1, timeouts: false }) : db;
  try {
    await runner.migrate.latest({ migrationSource: new ListedMigrationSource() });
  } finally {
    if (runner !== db) await runner.destroy();
  }
}
