import { z } from "zod";

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
});
export type PortalBranding = z.infer<typeof portalBrandingSchema>;

/** Which conversation the page is about: one of these query parameters (the first given). */
export const portalBrandingQuery = z.object({
  client: z.string().max(100).optional(),
  invite: z.string().max(300).optional(),
  code: z.string().max(100).optional(),
});
export type PortalBrandingQuery = z.infer<typeof portalBrandingQuery>;
