import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { createDatabase, type Database } from "../../server/db/connection";
import { migrateToLatest } from "../../server/db/migrate";
import { pgliteFromSnapshot } from "./pglite-snapshot";

export interface TestDatabaseOptions {
  /**
   * A database no other test file sees. On PostgreSQL every file otherwise shares
   * TEST_DATABASE_URL's database, which is fine for tests that only touch their own rows, but
   * not for a job that takes every due row of the database (e.g. the notification sweep):
   * here a fresh database is created and migrated next to it and dropped on destroy().
   * PGlite is always per file.
   */
  isolated?: boolean;
}

/**
 * The database for one test file: TEST_DATABASE_URL's PostgreSQL (migrated once in global
 * setup; tests make their own unique data), or else a fresh in-memory PGlite, loaded from the
 * run's migrated snapshot (global setup) when there is one.
 */
export async function testDatabase(options: TestDatabaseOptions = {}): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (url && options.isolated) return isolatedPostgres(url);
  if (url) return createDatabase({ url, poolMax: 5 });
  const snapshot = inject("pgliteSnapshot");
  const db = snapshot
    ? createDatabase({ pglite: await pgliteFromSnapshot(snapshot) })
    : createDatabase({});
  // A no-op on the snapshot (already at the latest migration).
  await migrateToLatest(db);
  return db;
}

/** An empty PostgreSQL database made next to `sharedUrl`'s, for a test of its own. */
export interface EmptyPostgres {
  url: string;
  /** Drops it (connections still open to it included). */
  drop(): Promise<void>;
}

export async function emptyPostgres(
  sharedUrl: string,
  prefix = "test_scratch",
): Promise<EmptyPostgres> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = createDatabase({ url: sharedUrl, poolMax: 1 });
  await admin.raw(`create database "${name}"`);
  const url = new URL(sharedUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.raw(`drop database if exists "${name}" with (force)`);
      await admin.destroy();
    },
  };
}

async function isolatedPostgres(sharedUrl: string): Promise<Database> {
  const scratch = await emptyPostgres(sharedUrl, "test_isolated");
  const db = createDatabase({ url: scratch.url, poolMax: 5 });
  const dropAll = async () => {
    await db.destroy();
    await scratch.drop();
  };
  try {
    await migrateToLatest(db);
  } catch (error) {
    await dropAll();
    throw error;
  }
  // knex's destroy is read-only: hand out a proxy whose destroy also drops the database.
  return new Proxy(db, {
    get: (target, property) =>
      property === "destroy" ? dropAll : Reflect.get(target, property, target),
  });
}

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);
