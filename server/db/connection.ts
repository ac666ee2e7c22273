import { mkdirSync } from "node:fs";
import path from "node:path";
import knex, { type Knex } from "knex";
import ClientPgLite from "knex-pglite";
import { knexSnakeCaseMappers } from "objection";
import pg from "pg";

// Return bigint counts as numbers and timestamps as Date (pg's defaults for the rest).
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export type Database = Knex;

export interface DatabaseOptions {
  /** postgres://... for a real server; otherwise PGlite. */
  url?: string;
  /** PGlite data directory; undefined keeps PGlite in memory (tests). */
  pgliteDir?: string;
  poolMax?: number;
}

export function createDatabase(options: DatabaseOptions): Database {
  if (options.url) {
    return knex({
      client: "pg",
      connection: options.url,
      pool: { min: 0, max: options.poolMax ?? 10 },
      ...knexSnakeCaseMappers(),
    });
  }
  if (options.pgliteDir) mkdirSync(path.dirname(options.pgliteDir), { recursive: true });
  return knex({
    client: ClientPgLite,
    dialect: "postgres",
    connection: options.pgliteDir ? { filename: options.pgliteDir } : {},
    ...knexSnakeCaseMappers(),
  } as Knex.Config);
}

export function isPglite(db: Database): boolean {
  return db.client.config.client !== "pg";
}
