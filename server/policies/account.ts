import { TIER_CONFIG } from "../../shared/tiers";
import { forbidden } from "../errors";
import type { User } from "../models";
import { definePolicy } from "./policy";

const ownerOnly = (actor: User) => actor.role === "owner" || forbidden("Only owners can do that");

/** Rules for a user's own account and settings. */
export const accountPolicy = definePolicy({
  updateProfile: (actor: User) => ownerOnly(actor),
  changePassword: (actor: User) => ownerOnly(actor),
  // Clients get in by links, not sessions they manage; their owner cuts them off (reissue).
  signOutEverywhere: (actor: User) => ownerOnly(actor),
  updateNotificationSettings: (actor: User) => ownerOnly(actor),
  uploadProfilePicture: (actor: User) => ownerOnly(actor),
  readAccountTier: (actor: User) => ownerOnly(actor),
  // A client's account belongs to the owner's conversation: only the owner deletes it.
  deleteAccount: (actor: User) => ownerOnly(actor),
  updateColorScheme: (actor: User) =>
    ownerOnly(actor) === true && TIER_CONFIG[actor.accountTier].colorCustomization
      ? true
      : forbidden("Colour schemes are part of the Agency plan"),
  uploadCompanyLogo: (actor: User) =>
    ownerOnly(actor) === true && TIER_CONFIG[actor.accountTier].logoSupport
      ? true
      : forbidden("Company logos are part of the Agency plan"),
});
