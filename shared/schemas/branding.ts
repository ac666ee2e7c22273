import { z } from "zod";
import { languageSchema } from "./language";

/**
 * Shades of a colour scheme that stay readable (shared/contrast.ts brandShades), computed by
 * the server for the scheme the portal shows, so that the portal's first load carries no
 * contrast code.
 */
export const brandShadesSchema = z.strictObject({
  primaryStrong: z.string(),
  primaryText: z.string(),
  textMuted: z.string(),
  textSubtle: z.string(),
});

/**
 * GET /api/portal-branding: how a client's signed-out and sign-in pages look. Public, so it
 * carries only what an agency owner shows every visitor of those pages (company name, logo,
 * colours); every other case, an unknown id included, answers the defaults in the same shape.
 */
export const portalBrandingSchema = z.strictObject({
  /** True when these are an agency owner's own; false for the product's defaults. */
  branded: z.boolean(),
  companyName: z.string().nullable(),
  /** A public address of the logo image (/api/portal-branding/logo/...), or null. */
  companyLogo: z.string().nullable(),
  primaryColor: z.string(),
  backgroundColor: z.string(),
  textColor: z.string(),
  /** The readable shades of these colours. */
  shades: brandShadesSchema,
  /**
   * The language the named conversation's pages are shown in until the reader picks one
   * (issue 29: the client's invite language, else its workspace's); null when none is named.
   */
  language: languageSchema.nullable(),
});
export type PortalBranding = z.infer<typeof portalBrandingSchema>;

/** Which conversation the page is about: one of these query parameters (the first given). */
export const portalBrandingQuery = z.object({
  client: z.string().max(100).optional(),
  invite: z.string().max(300).optional(),
  code: z.string().max(100).optional(),
});
export type PortalBrandingQuery = z.infer<typeof portalBrandingQuery>;
