import type { Knex } from "knex";
import type { Clock } from "../clock";
import type { Logger } from "../logger";
import { DataExport, StoredFile, User } from "../models";
import { PARTIAL_SUFFIX, PREVIEW_SUFFIX, type Storage } from "./storage";

/** Younger keys may belong to an upload still being written or about to get its row. */
export const SWEEP_MIN_AGE_MS = 60 * 60_000;

const BATCH = 500;

export interface SweepResult {
  partial: number;
  orphaned: number;
  kept: number;
}

/** The stored file a key belongs to: a preview belongs to its original. */
function ownerKey(key: string): string {
  return key.endsWith(PREVIEW_SUFFIX) ? key.slice(0, -PREVIEW_SUFFIX.length) : key;
}

/**
 * Which of `names` a row names: a file (conversation file or user image), a user's image, or
 * a mailed export's ZIP (issue 28).
 */
async function referenced(db: Knex, names: string[]): Promise<Set<string>> {
  const files = await StoredFile.query(db).select("storedName").whereIn("storedName", names);
  const users = await User.query(db)
    .select("profilePicture", "companyLogo")
    .whereIn("profilePicture", names)
    .orWhereIn("companyLogo", names);
  const exports = await DataExport.query(db).select("storedName").whereIn("storedName", names);
  return new Set([
    ...files.map((file) => file.storedName),
    ...exports.map((row) => row.storedName).filter((name) => name !== null),
    ...users
      .flatMap((user) => [user.profilePicture, user.companyLogo])
      .filter((name) => name !== null),
  ]);
}

/**
 * Removes from storage what no row will ever name, once it is older than `minAgeMs`: bytes
 * left half-written (`.partial`, e.g. by a crash mid-upload), complete files whose row was
 * never written or is gone (a crash between storing and committing, a failed delete), and
 * previews of either. A file named by a row is never touched, however old.
 */
export async function sweepStorage(
  services: { storage: Storage; clock: Clock; logger: Logger },
  db: Knex,
  minAgeMs = SWEEP_MIN_AGE_MS,
): Promise<SweepResult> {
  const cutoff = services.clock.now().getTime() - minAgeMs;
  const result: SweepResult = { partial: 0, orphaned: 0, kept: 0 };
  let batch: string[] = [];

  const remove = async (key: string) => {
    try {
      await services.storage.delete(key);
      return true;
    } catch (error) {
      services.logger.warn({ err: error, key }, "storage sweep could not delete a file");
      return false;
    }
  };
  const settle = async () => {
    const names = [...new Set(batch.map(ownerKey))];
    const known = await referenced(db, names);
    for (const key of batch) {
      if (known.has(ownerKey(key))) result.kept += 1;
      else if (await remove(key)) result.orphaned += 1;
    }
    batch = [];
  };

  for await (const { key, modifiedAt } of services.storage.list()) {
    if (modifiedAt.getTime() > cutoff) continue;
    if (key.endsWith(PARTIAL_SUFFIX)) {
      if (await remove(key)) result.partial += 1;
      continue;
    }
    batch.push(key);
    if (batch.length >= BATCH) await settle();
  }
  if (batch.length > 0) await settle();
  return result;
}
