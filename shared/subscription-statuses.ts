/**
 * Stripe subscription statuses in which the customer still has what they paid for (past_due
 * too: the grace period). The server's billing state and the web's summaries read this one set.
 */
export const LIVE_STATUSES: ReadonlySet<string> = new Set(["active", "trialing", "past_due"]);
