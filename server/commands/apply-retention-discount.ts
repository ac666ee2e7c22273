import { retentionDiscountDollars } from "../../shared/tiers";
import { applyProviderAnswer } from "../billing/apply-provider-answer";
import { billingProvider } from "../billing/provider";
import type { Services } from "../context";
import { conflict } from "../errors";
import { User } from "../models";

/**
 * The retention offer: a one-off amount off the next invoice ($5 on Pro, $20 on Agency),
 * once per account, so the offer cannot be collected again and again.
 */
export async function applyRetentionDiscount(
  services: Services,
  actor: User,
): Promise<{ user: User; dollars: number }> {
  const dollars = retentionDiscountDollars(actor.accountTier);
  // Claim the offer first (conditional update): two clicks at once give one discount.
  const claimed = await User.query(services.db)
    .findById(actor.id)
    .whereNull("retentionDiscountAt")
    .patch({ retentionDiscountAt: services.clock.now(), retentionDiscountCents: dollars * 100 });
  if (claimed === 0) throw conflict("The retention discount was already applied to this account");
  try {
    const answer = await billingProvider(services).applyDiscount(actor, dollars * 100);
    const user = await applyProviderAnswer(services, actor.id, answer);
    return { user, dollars };
  } catch (error) {
    await User.query(services.db)
      .findById(actor.id)
      .patch({ retentionDiscountAt: null, retentionDiscountCents: null });
    throw error;
  }
}
