import { createDatabase } from "../../server/db/connection";
import { migrateToLatest } from "../../server/db/migrate";
import { ensureWebBuilt } from "./web-build";

export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const db = createDatabase({ url });
    await migrateToLatest(db);
    await db.destroy();
  }
  // Browser tests drive the built app.
  if (process.env.SKIP_WEB_BUILD !== "1") await ensureWebBuilt();
}
