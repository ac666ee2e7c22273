import { TIER_CONFIG } from "../../shared/tiers";
import { forbidden } from "../errors";
import type { User } from "../models";
import { definePolicy } from "./policy";

const ownerOnly = (actor: User) => actor.role === "owner" || forbidden("Only owners can do that");

const brandingOwner = (actor: User) =>
  actor.teamRole === "owner" || forbidden("Only the workspace's owner can change its branding");

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
  // A workspace's branding is its owner's row (issue 26): staff cannot change it.
  updateColorScheme: (actor: User) =>
    ownerOnly(actor) !== true || !TIER_CONFIG[actor.accountTier].colorCustomization
      ? forbidden("Colour schemes are part of the Agency plan")
      : brandingOwner(actor),
  uploadCompanyLogo: (actor: User) =>
    ownerOnly(actor) !== true || !TIER_CONFIG[actor.accountTier].logoSupport
      ? forbidden("Company logos are part of the Agency plan")
      : brandingOwner(actor),
});
