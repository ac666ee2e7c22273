import { z } from "zod";
import { msg } from "../i18n/msg";

export const emailSchema = z
  .string({ error: msg("Email is required") })
  .trim()
  .toLowerCase()
  .max(254, msg("Email is too long"))
  .pipe(z.email({ error: msg("Please enter a valid email address") }));

export const passwordSchema = z
  .string({ error: msg("Password is required") })
  .min(6, msg("Password must be at least 6 characters long"))
  .max(200, msg("Password is too long"));

export const uuidSchema = z.uuid({ error: msg("Not found") });

/**
 * Every error answer: {message}, and the few extra fields some errors carry (an invalid
 * invite says success: false; a used or replaced invite link also says reason: "used", one
 * opened by someone else signed in reason: "signed_in"; a login refused for an unverified
 * address names it).
 */
export const errorResponseSchema = z.strictObject({
  message: z.string(),
  success: z.literal(false).optional(),
  reason: z.enum(["used", "signed_in"]).optional(),
  requiresVerification: z.literal(true).optional(),
  email: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const successResponseSchema = z.strictObject({
  success: z.literal(true),
  message: z.string(),
});
export type SuccessResponse = z.infer<typeof successResponseSchema>;
