import { createHash } from "node:crypto";
import type { Services } from "../context";
import { StoredFile } from "../models";

/**
 * The SHA-256 (hex) of a stored file's bytes: kept on the files row once computed, else read
 * from storage as a stream (never whole in memory) and kept. The bytes never change under a
 * stored name, so the kept hash stays true.
 */
export async function fileSha256(
  services: Pick<Services, "db" | "storage">,
  file: Pick<StoredFile, "id" | "storedName" | "sha256">,
): Promise<string> {
  if (file.sha256) return file.sha256;
  const hash = createHash("sha256");
  for await (const chunk of await services.storage.get(file.storedName)) hash.update(chunk);
  const sha256 = hash.digest("hex");
  await StoredFile.query(services.db).findById(file.id).patch({ sha256 });
  return sha256;
}
