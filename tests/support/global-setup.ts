import { createDatabase } from "../../server/db/connection";
import { migrateToLatest } from "../../server/db/migrate";
import type { TestProject } from "vitest/node";
import { writePgliteSnapshot } from "./pglite-snapshot";
import { ensureServerBuilt } from "./server-process";
import { ensureWebBuilt } from "./web-build";

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  let removeSnapshot: (() => void) | undefined;
  if (url) {
    const db = createDatabase({ url });
    await migrateToLatest(db);
    await db.destroy();
    project.provide("pgliteSnapshot", undefined);
  } else if (process.env.TEST_PGLITE_SNAPSHOT === "0") {
    // Each database runs initdb and the migrations itself (to compare, or to rule it out).
    project.provide("pgliteSnapshot", undefined);
  } else {
    // One migrated PGlite, dumped: each test file's databases start from it (testDatabase).
    const snapshot = await writePgliteSnapshot();
    removeSnapshot = snapshot.remove;
    project.provide("pgliteSnapshot", snapshot.file);
  }
  // Tests that run the server as a process share one bundle, built here before any of them.
  ensureServerBuilt();
  // Browser tests drive the built app.
  if (process.env.SKIP_WEB_BUILD !== "1") await ensureWebBuilt();
  return () => removeSnapshot?.();
}
