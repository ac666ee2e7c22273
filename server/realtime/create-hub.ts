import type { Config } from "../config";
import { type Database, isPglite } from "../db/connection";
import type { Logger } from "../logger";
import { RealtimeHub } from "./hub";
import { PostgresRealtimeHub } from "./postgres-hub";

/**
 * On PostgreSQL, events fan out between instances through LISTEN/NOTIFY; on PGlite (one
 * process by nature) they stay in process.
 */
export function createRealtimeHub(options: {
  config: Config;
  db: Database;
  logger: Logger;
}): RealtimeHub {
  const { config, db, logger } = options;
  if (config.databaseUrl && !isPglite(db)) {
    return new PostgresRealtimeHub({ db, connectionString: config.databaseUrl, logger });
  }
  return new RealtimeHub();
}
