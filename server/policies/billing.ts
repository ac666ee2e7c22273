import { conflict, forbidden, paymentRequired } from "../errors";
import type { User } from "../models";
import { LIVE_STATUSES } from "../../shared/subscription-statuses";
import { SEAT_TIER } from "../../shared/tiers";
import { definePolicy } from "./policy";

const ownerOnly = (actor: User) =>
  actor.role === "owner" || forbidden("Only account owners manage billing");

/** A workspace's plan is its owner's to buy and change (issue 26); staff only see it. */
const workspaceOwnerOnly = (actor: User) => {
  const owner = ownerOnly(actor);
  if (owner !== true) return owner;
  return actor.teamRole === "owner" || forbidden("Only the workspace's owner manages billing");
};

/** A paid plan that is still running (in grace too) and can be discounted, paused or cancelled. */
export const hasLiveSubscription = (user: User) =>
  user.accountTier !== "free" &&
  user.stripeSubscriptionId !== null &&
  LIVE_STATUSES.has(user.subscriptionStatus);

/** Billing belongs to the signed-in owner's own account; client users have none (403). */
export const billingPolicy = definePolicy({
  readStatus: (actor: User) => ownerOnly(actor),
  checkout: (actor: User) => workspaceOwnerOnly(actor),
  keepAccount: (actor: User) => workspaceOwnerOnly(actor),
  changeSubscription: (actor: User) => {
    const owner = workspaceOwnerOnly(actor);
    if (owner !== true) return owner;
    return hasLiveSubscription(actor) || conflict("You have no paid subscription to change");
  },
  /** Extra seats (issue 26): the owner, on Agency, with a subscription to add them to. */
  changeSeats: (actor: User) => {
    const owner = workspaceOwnerOnly(actor);
    if (owner !== true) return owner;
    if (actor.accountTier !== SEAT_TIER)
      return paymentRequired("Extra seats are part of the Agency plan: upgrade to add seats");
    return hasLiveSubscription(actor) || conflict("You have no paid subscription to add seats to");
  },
});
