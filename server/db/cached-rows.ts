/**
 * The channel on which PostgreSQL itself announces changed rows of the tables instances cache
 * (users and sessions for the session cache, clients for the client cache): a statement-level trigger NOTIFYs it, so the
 * announcement is delivered when the change commits, whoever made it. Every instance LISTENs
 * (server/realtime/postgres-hub.ts) and empties its caches. The triggers are in migration
 * 20261129020000_cached_rows_notify.
 */
export const CACHED_ROWS_CHANNEL = "clientdesk_cached_rows";
