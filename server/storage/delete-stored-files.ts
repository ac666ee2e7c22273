import type { Logger } from "../logger";
import { previewKeyOf, type Storage } from "./storage";

/**
 * Removes the bytes of files whose rows are gone: each stored name and its preview (a missing
 * one is fine). Never throws: a failure is logged, and the storage sweep removes what is left
 * once it is an hour old (no row names it any more).
 */
export async function deleteStoredFiles(
  services: { storage: Storage; logger: Logger },
  storedNames: readonly string[],
): Promise<void> {
  for (const storedName of storedNames) {
    for (const key of [storedName, previewKeyOf(storedName)]) {
      try {
        await services.storage.delete(key);
      } catch (error) {
        services.logger.warn(
          { err: error, key },
          "could not delete a stored file; the storage sweep will retry",
        );
      }
    }
  }
}
