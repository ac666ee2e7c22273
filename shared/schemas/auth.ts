import { z } from "zod";
import { emailSchema, passwordSchema } from "./common";
import { singleLineText } from "./text";
import { userSchema } from "./user";

export const loginInput = z.strictObject({
  username: emailSchema,
  password: z
    .string({ error: "Password is required" })
    .min(1, "Password is required")
    .max(200, "Password is too long"),
});
export type LoginInput = z.infer<typeof loginInput>;

export const registerInput = z.strictObject({
  email: emailSchema,
  password: passwordSchema,
  fullName: singleLineText({ label: "Full name", max: 100 }),
  role: z.literal("owner", { error: "Only owner accounts can sign up" }),
  accountTier: z.literal("free", { error: "New accounts start on the free plan" }),
});
export type RegisterInput = z.infer<typeof registerInput>;

export const verificationCodeSchema = z
  .string({ error: "Code is required" })
  .regex(/^\d{6}$/, "The code has 6 digits");

export const verifyEmailInput = z.strictObject({ email: emailSchema, code: verificationCodeSchema });
export type VerifyEmailInput = z.infer<typeof verifyEmailInput>;

export const emailOnlyInput = z.strictObject({ email: emailSchema });
export type EmailOnlyInput = z.infer<typeof emailOnlyInput>;

export const resetPasswordInput = z.strictObject({
  email: emailSchema,
  token: z.string({ error: "Reset code is required" }).trim().length(6, "The reset code has 6 characters"),
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
