import type { Knex } from "knex";
import { migrations } from "../migrations";

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

export async function migrateToLatest(db: Knex): Promise<void> {
  await db.migrate.latest({ migrationSource: new ListedMigrationSource() });
}
