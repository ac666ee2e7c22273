import type { Database } from "../../server/db/connection";

/** The SQL statements `db` runs while `action` runs (knex's query events). */
export async function statementsDuring(
  db: Database,
  action: () => Promise<unknown>,
): Promise<string[]> {
  const statements: string[] = [];
  const heard = (query: { sql: string }) => {
    statements.push(query.sql);
  };
  db.on("query", heard);
  try {
    await action();
  } finally {
    db.removeListener("query", heard);
  }
  return statements;
}
