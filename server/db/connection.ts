import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import knex, { type Knex } from "knex";
import ClientPgLite from "knex-pglite";
import { knexSnakeCaseMappers } from "objection";
import pg from "pg";
import type { Logger } from "../logger";
import { DATABASE_TIMEOUTS } from "./timeouts";

// Return bigint counts as numbers and timestamps as Date (pg's defaults for the rest).
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export type Database = Knex;

export interface DatabaseOptions {
  /** postgres://... for a real server; otherwise PGlite. */
  url?: string;
  /** PGlite data directory; undefined keeps PGlite in memory (tests). */
  pgliteDir?: string;
  /** An open PGlite to use instead (tests: one loaded from a migrated snapshot). */
  pglite?: PGlite;
  poolMax?: number;
  /** PostgreSQL only: false for work that may legitimately run long (migrations). */
  timeouts?: boolean;
  /** Where knex's own warnings go (e.g. a failed connection attempt); else the console. */
  logger?: Logger;
}

export function createDatabase(options: DatabaseOptions): Database {
  if (options.url) {
    return knex({
      client: "pg",
      ...postgresConnection(options.url, options.timeouts ?? true),
      pool: {
        min: 0,
        max: options.poolMax ?? 10,
        createTimeoutMillis: DATABASE_TIMEOUTS.connectMs,
        // A connection idle this long is closed, so that one the network silently lost is not
        // kept for ever (keepAlive finds the others).
        idleTimeoutMillis: 30_000,
      },
      ...(options.logger ? { log: knexLog(options.logger) } : {}),
      ...knexSnakeCaseMappers(),
    });
  }
  if (options.pgliteDir) mkdirSync(path.dirname(options.pgliteDir), { recursive: true });
  return knex({
    client: ClientPgLite,
    dialect: "postgres",
    connection: options.pglite
      ? { pglite: options.pglite }
      : options.pgliteDir
        ? { filename: options.pgliteDir }
        : {},
    ...knexSnakeCaseMappers(),
  } as Knex.Config);
}

/** The pg connection settings: every limit of DATABASE_TIMEOUTS unless `timeouts` is false. */
function postgresConnection(url: string, timeouts: boolean): Knex.Config {
  if (!timeouts) return { connection: { connectionString: url, keepAlive: true } };
  return {
    connection: {
      connectionString: url,
      keepAlive: true,
      connectionTimeoutMillis: DATABASE_TIMEOUTS.connectMs,
      statement_timeout: DATABASE_TIMEOUTS.statementMs,
      query_timeout: DATABASE_TIMEOUTS.queryMs,
    } as Knex.PgConnectionConfig,
    acquireConnectionTimeout: DATABASE_TIMEOUTS.acquireMs,
  };
}

/** Knex's messages as JSON log lines, like everything else the server says. */
function knexLog(logger: Logger): Knex.Config["log"] {
  return {
    warn: (message: unknown) => logger.warn({ knex: String(message) }, "database"),
    error: (message: unknown) => logger.error({ knex: String(message) }, "database"),
    deprecate: (method: unknown, alternative: unknown) =>
      logger.warn({ knex: `${method} is deprecated; use ${alternative}` }, "database"),
    debug: () => undefined,
  };
}

/** The postgres:// URL a PostgreSQL database was made with (undefined for PGlite). */
export function connectionUrl(db: Database): string | undefined {
  const connection = db.client.config.connection as { connectionString?: string } | undefined;
  return isPglite(db) ? undefined : connection?.connectionString;
}

export function isPglite(db: Database): boolean {
  return db.client.config.client !== "pg";
}
