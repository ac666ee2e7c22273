import { createDatabase } from "../../server/db/connection";
import { migrateToLatest } from "../../server/db/migrate";
import { ensureServerBuilt } from "./server-process";
import { ensureWebBuilt } from "./web-build";

export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const db = createDatabase({ url });
    await migrateToLatest(db);
    await db.destroy();
  }
  // Tests that run the server as a process share one bundle, built here before any of them.
  ensureServerBuilt();
  // Browser tests drive the built app.
  if (process.env.SKIP_WEB_BUILD !== "1") await ensureWebBuilt();
}
