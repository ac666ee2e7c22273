/** Plans, prices and limits (spec section 9). One table, read by server and UI. */
export const TIERS = ["free", "pro", "agency"] as const;
export type Tier = (typeof TIERS)[number];

export const BILLING_PERIODS = ["monthly", "annual"] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

export interface TierConfig {
  name: string;
  /** null means unlimited. */
  clientLimit: number | null;
  logoSupport: boolean;
  colorCustomization: boolean;
}

export const TIER_CONFIG: Record<Tier, TierConfig> = {
  free: { name: "Free", clientLimit: 1, logoSupport: false, colorCustomization: false },
  pro: { name: "Pro", clientLimit: 10, logoSupport: false, colorCustomization: false },
  agency: { name: "Agency", clientLimit: null, logoSupport: true, colorCustomization: true },
};

/**
 * Seats (people in a workspace, its owner included) that come with each plan (issue 26).
 * Agency workspaces buy more on top (`users.extra_seats`, a second subscription item).
 */
export const SEATS_INCLUDED: Record<Tier, number> = { free: 1, pro: 1, agency: 3 };

/** The plan on which seats can be bought on top of the included ones. */
export const SEAT_TIER: Tier = "agency";

/** One extra seat, in whole US dollars, per billing period (the subscription's own interval). */
export const EXTRA_SEAT_PRICE: Record<BillingPeriod, number> = { monthly: 8, annual: 80 };

/** A ceiling on extra seats, against a typo buying thousands. */
export const MAX_EXTRA_SEATS = 100;

export function seatPriceCents(period: BillingPeriod): number {
  return EXTRA_SEAT_PRICE[period] * 100;
}

/** Storage is counted in binary units, as file sizes are shown: 1 GB = 1024^3 bytes. */
export const GB = 1024 ** 3;

/**
 * Bytes of conversation files an owner's account may keep: the `size` of every file in the
 * owner's conversations, whichever side uploaded it.
 */
export const STORAGE_QUOTA_BYTES: Record<Tier, number> = {
  free: 1 * GB,
  pro: 20 * GB,
  agency: 200 * GB,
};

/** A pricing card's numbers; its list of features is worded by the web (plan-card.tsx). */
export interface TierPlan {
  tier: Tier;
  /** Price in whole US dollars. */
  monthlyPrice: number;
  annualPrice: number;
  annualSaving: number;
  mostPopular: boolean;
}

export const PLANS: TierPlan[] = [
  {
    tier: "free",
    monthlyPrice: 0,
    annualPrice: 0,
    annualSaving: 0,
    mostPopular: false,
  },
  {
    tier: "pro",
    monthlyPrice: 10,
    annualPrice: 100,
    annualSaving: 20,
    mostPopular: false,
  },
  {
    tier: "agency",
    monthlyPrice: 30,
    annualPrice: 300,
    annualSaving: 60,
    mostPopular: true,
  },
];

export const PAYMENT_GRACE_HOURS = 24;

export function canCreateMoreClients(tier: Tier, clientCount: number): boolean {
  const limit = TIER_CONFIG[tier].clientLimit;
  return limit === null || clientCount < limit;
}

/** Spec section 9: $5 off the next bill on Pro, $20 on the other paid tier (Agency). */
export function retentionDiscountDollars(tier: Tier): number {
  return tier === "pro" ? 5 : tier === "agency" ? 20 : 0;
}

/** Price of one billing period in cents. */
export function planPriceCents(tier: Tier, period: BillingPeriod): number {
  const plan = PLANS.find((candidate) => candidate.tier === tier);
  if (!plan) return 0;
  return (period === "annual" ? plan.annualPrice : plan.monthlyPrice) * 100;
}
