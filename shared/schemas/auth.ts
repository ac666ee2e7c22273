import { z } from "zod";
import { emailSchema, passwordSchema } from "./common";
import { singleLineText } from "./text";
import { userSchema } from "./user";
import { msg } from "../i18n/msg";

export const loginInput = z.strictObject({
  username: emailSchema,
  password: z
    .string({ error: msg("Password is required") })
    .min(1, msg("Password is required"))
    .max(200, msg("Password is too long")),
});
export type LoginInput = z.infer<typeof loginInput>;

export const registerInput = z.strictObject({
  email: emailSchema,
  password: passwordSchema,
  fullName: singleLineText({
    max: 100,
    requiredMessage: msg("Full name is required"),
    tooLongMessage: msg("Full name must be at most 100 characters"),
  }),
  role: z.literal("owner", { error: msg("Only owner accounts can sign up") }),
  accountTier: z.literal("free", { error: msg("New accounts start on the free plan") }),
});
export type RegisterInput = z.infer<typeof registerInput>;

export const verificationCodeSchema = z
  .string({ error: msg("Code is required") })
  .regex(/^\d{6}$/, msg("The code has 6 digits"));

export const verifyEmailInput = z.strictObject({
  email: emailSchema,
  code: verificationCodeSchema,
});
export type VerifyEmailInput = z.infer<typeof verifyEmailInput>;

export const emailOnlyInput = z.strictObject({ email: emailSchema });
export type EmailOnlyInput = z.infer<typeof emailOnlyInput>;

export const resetPasswordInput = z.strictObject({
  email: emailSchema,
  token: z
    .string({ error: msg("Reset code is required") })
    .trim()
    .length(6, msg("The reset code has 6 characters")),
  newPassword: passwordSchema,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

export const requiresVerificationResponse = z.strictObject({
  requiresVerification: z.literal(true),
  email: z.string(),
});
export type RequiresVerificationResponse = z.infer<typeof requiresVerificationResponse>;

export const loginForbiddenResponse = requiresVerificationResponse.extend({ message: z.string() });

/** POST /api/register: 201 with the user, or (as this server does) a code to verify first. */
export const registerResponse = z.union([requiresVerificationResponse, userSchema]);
export type RegisterResponse = z.infer<typeof registerResponse>;

export const googleAvailableResponse = z.strictObject({ available: z.boolean() });
export type GoogleAvailableResponse = z.infer<typeof googleAvailableResponse>;

/** A PKCE code verifier (RFC 7636 §4.1): 43 to 128 unreserved characters. */
export const pkceVerifierSchema = z
  .string()
  .regex(/^[A-Za-z0-9._~-]{43,128}$/, msg("Not a PKCE code verifier"));

/**
 * GET /auth/google/desktop: the desktop app starts a Google sign-in in the system browser
 * (RFC 8252): the S256 challenge of its verifier, its own state, and its loopback port.
 */
export const desktopGoogleStartQuery = z.object({
  code_challenge: z.string().regex(/^[A-Za-z0-9_-]{43}$/, msg("Not an S256 code challenge")),
  state: z.string().regex(/^[A-Za-z0-9_-]{22,128}$/, msg("Not a state value")),
  port: z
    .string()
    .regex(/^\d{4,5}$/, msg("Not a port"))
    .transform(Number)
    .pipe(z.number().min(1024).max(65535)),
});
export type DesktopGoogleStartQuery = z.infer<typeof desktopGoogleStartQuery>;

/** POST /api/auth/desktop/exchange: the loopback's one-time code and the app's verifier. */
export const desktopSignInExchangeInput = z.strictObject({
  code: z.string().regex(/^[A-Za-z0-9_-]{43}$/, msg("Not a sign-in code")),
  codeVerifier: pkceVerifierSchema,
});
export type DesktopSignInExchangeInput = z.infer<typeof desktopSignInExchangeInput>;
