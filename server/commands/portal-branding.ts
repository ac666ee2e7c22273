import type { PortalBranding, PortalBrandingQuery } from "../../shared/schemas/branding";
import { TIER_CONFIG } from "../../shared/tiers";
import {
  hashInviteToken,
  isWellFormedInviteToken,
  isWellFormedShortCode,
} from "../auth/invite-tokens";
import { clientOfSpentInvite } from "../auth/spent-invite-tokens";
import { featureTier } from "../billing/feature-tier";
import type { Services } from "../context";
import { Client, ShortLink, User } from "../models";
import { defaultPortalBranding, presentPortalBranding } from "../presenters/portal-branding";
import { isUuid } from "../validate";

/**
 * The conversation a signed-out page names: by its id, by an invite token (live, used or
 * replaced), or by a short code. Malformed values are not looked up at all.
 */
async function clientIdOf(services: Services, query: PortalBrandingQuery): Promise<string | null> {
  const { db } = services;
  if (query.client !== undefined) return isUuid(query.client) ? query.client : null;
  if (query.invite !== undefined) {
    if (!isWellFormedInviteToken(query.invite)) return null;
    const hash = hashInviteToken(query.invite);
    const live = await Client.query(db).select("id").findOne({ inviteTokenHash: hash });
    return live?.id ?? (await clientOfSpentInvite(db, hash));
  }
  if (query.code !== undefined) {
    if (!isWellFormedShortCode(query.code)) return null;
    const link = await ShortLink.query(db).select("clientId").findById(query.code);
    return link?.clientId ?? null;
  }
  return null;
}

/**
 * The branding a client's signed-out pages show: the owner's own when their plan includes
 * branding (agency, or every owner with billing off), else the defaults; and their language. The same shape for
 * an unknown conversation, so the answer tells nothing about which ids exist.
 */
export async function portalBranding(
  services: Services,
  query: PortalBrandingQuery,
): Promise<PortalBranding> {
  const clientId = await clientIdOf(services, query);
  const client = clientId
    ? await Client.live(services.db).select("ownerId", "language").findById(clientId)
    : undefined;
  const owner = client ? await User.query(services.db).findById(client.ownerId) : undefined;
  if (!client || !owner) return defaultPortalBranding();
  // The invite page and the signed-out pages speak the client's language (issue 29).
  const language = client.language ?? owner.workspaceLanguage;
  const tier = TIER_CONFIG[featureTier(services.config, owner.accountTier)];
  if (!tier.logoSupport && !tier.colorCustomization) return defaultPortalBranding(language);
  return presentPortalBranding(owner, tier, language);
}

/**
 * The stored name of a logo that may be served to anyone: the current company logo of an
 * owner whose plan shows it. Null for any other file, which then answers 404.
 */
export async function publicLogo(services: Services, storedName: string): Promise<string | null> {
  const owner = await User.query(services.db)
    .select("accountTier", "companyLogo")
    .findOne({ companyLogo: storedName, role: "owner" });
  if (!owner?.companyLogo) return null;
  return TIER_CONFIG[featureTier(services.config, owner.accountTier)].logoSupport
    ? owner.companyLogo
    : null;
}
