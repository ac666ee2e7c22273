import type { Knex } from "knex";
import { STORAGE_QUOTA_BYTES } from "../../shared/tiers";
import { StoredFile, type User } from "../models";

/** The `size` of every file in the owner's conversations, whoever uploaded it. */
export async function storageUsedBytes(db: Knex, ownerId: string): Promise<number> {
  const row = (await StoredFile.query(db)
    .joinRelated("client")
    .where("client.ownerId", ownerId)
    .sum("files.sizeBytes as used")
    .first()) as unknown as { used: number | string | null } | undefined;
  return Number(row?.used ?? 0);
}

export interface StorageUsage {
  usedBytes: number;
  quotaBytes: number;
}

export async function storageUsage(db: Knex, owner: User): Promise<StorageUsage> {
  return {
    usedBytes: await storageUsedBytes(db, owner.id),
    quotaBytes: STORAGE_QUOTA_BYTES[owner.accountTier],
  };
}
