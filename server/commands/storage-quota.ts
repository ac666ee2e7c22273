import type { Knex } from "knex";
import { formatFileSize } from "../../shared/files";
import { STORAGE_QUOTA_BYTES } from "../../shared/tiers";
import { featureTier } from "../billing/feature-tier";
import type { Config } from "../config";
import { payloadTooLarge } from "../errors";
import { User } from "../models";
import { storageUsedBytes } from "../queries/storage-usage";

/**
 * Inside the transaction that adds a file of `addedBytes` to a conversation of `ownerId`:
 * refuses it (413) if the owner's files would then exceed the plan's quota. The owner's row
 * is locked, so two uploads at once cannot both take the last of the room. With billing off
 * every owner has the top tier's room.
 */
export async function assertStorageRoom(
  trx: Knex.Transaction,
  config: Pick<Config, "billingMode">,
  ownerId: string,
  addedBytes: number,
): Promise<void> {
  const owner = await User.query(trx).findById(ownerId).forUpdate().throwIfNotFound();
  const tier = featureTier(config, owner.accountTier);
  const used = await storageUsedBytes(trx, ownerId);
  if (used + addedBytes > STORAGE_QUOTA_BYTES[tier])
    throw payloadTooLarge(
      "Storage is full: this account's plan includes {{size}}. Delete files or upgrade to upload more.",
      { size: formatFileSize(STORAGE_QUOTA_BYTES[tier]) },
    );
}
