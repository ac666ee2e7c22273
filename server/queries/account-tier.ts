import type { AccountTierInfo } from "../../shared/schemas/user";
import { TIER_CONFIG, canCreateMoreClients } from "../../shared/tiers";
import { featureTier, withFeatures } from "../billing/feature-tier";
import type { Services } from "../context";
import { Client, type User } from "../models";
import { storageUsage } from "./storage-usage";
import { workspaceOwnerOf } from "./workspace-owner";

/**
 * The owner's plan as the dashboard's plan box shows it (GET /api/user/account-tier, and the
 * dashboard's first screen): the plan in force, clients against its limit, storage used.
 */
export async function loadAccountTier(services: Services, actor: User): Promise<AccountTierInfo> {
  // Staff see their workspace's plan (issue 26): its owner's row.
  const owner = await workspaceOwnerOf(services.db, actor);
  const [clientCount, storage] = await Promise.all([
    Client.countOfOwner(services.db, owner.id),
    storageUsage(services.db, withFeatures(services.config, owner)),
  ]);
  const tier = featureTier(services.config, owner.accountTier);
  return {
    currentTier: tier,
    clientCount,
    canCreateMore: canCreateMoreClients(tier, clientCount),
    tierConfig: TIER_CONFIG[tier],
    storage,
  };
}
