/**
 * How this server bills (BILLING_MODE): stripe takes real payments; test simulates checkout
 * (no money moves, a TEST MODE bar says so); off is self-hosted: no plans, every owner has
 * every feature and no client limit.
 */
export const BILLING_MODES = ["stripe", "test", "off"] as const;
export type BillingMode = (typeof BILLING_MODES)[number];
