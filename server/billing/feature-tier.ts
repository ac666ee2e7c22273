import { Model } from "objection";
import type { Tier } from "../../shared/tiers";
import type { Config } from "../config";

type ModeConfig = Pick<Config, "billingMode">;

/**
 * The tier whose features an owner has. With BILLING_MODE=off (self-hosted) there are no
 * plans: every owner has every feature (logo, colours, short links) and no client limit,
 * which is the top tier's row of the tiers table. Otherwise the tier they pay for.
 */
export function featureTier(config: ModeConfig, tier: Tier): Tier {
  return config.billingMode === "off" ? "agency" : tier;
}

/**
 * The owner as their features are judged and shown: a copy on the feature tier (the stored
 * row keeps the billed tier, so turning billing on again starts from what was paid for).
 * Client users have no plan and are returned as they are.
 */
export function withFeatures<T extends { accountTier: Tier; role?: string; workspaceTier?: Tier }>(
  config: ModeConfig,
  owner: T,
): T {
  // Staff work under their workspace's plan (issue 26), read with their session.
  const tier = featureTier(config, owner.workspaceTier ?? owner.accountTier);
  const judged = owner.workspaceTier === undefined || owner.workspaceTier === tier;
  if (
    (tier === owner.accountTier && judged) ||
    (owner.role !== undefined && owner.role !== "owner")
  )
    return owner;
  const shown = owner.workspaceTier === undefined ? {} : { workspaceTier: tier };
  if (owner instanceof Model) {
    const copy = owner.$clone() as unknown as T;
    Object.assign(copy, { accountTier: tier, ...shown });
    return copy;
  }
  return { ...owner, accountTier: tier, ...shown };
}
