import { z } from "zod";
import { TIERS } from "../tiers";
import { passwordSchema, successResponseSchema } from "./common";
import { optionalSingleLineText, singleLineText } from "./text";

export const ROLES = ["owner", "client"] as const;
export type Role = (typeof ROLES)[number];

export { DEFAULT_COLORS, DEFAULT_NOTIFICATION_DELAY } from "../defaults";

/** A user as the API presents it. */
export const userSchema = z.strictObject({
  id: z.string(),
  email: z.string(),
  fullName: z.string(),
  companyName: z.string().nullable(),
  role: z.enum(ROLES),
  profilePicture: z.string().nullable(),
  companyLogo: z.string().nullable(),
  primaryColor: z.string(),
  backgroundColor: z.string(),
  textColor: z.string(),
  emailNotificationDelay: z.number(),
  accountTier: z.enum(TIERS),
  emailVerified: z.boolean(),
  hasPassword: z.boolean(),
  /** For a client user: the conversation they belong to. */
  clientId: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

/** Answer of the calls that change the signed-in user (settings, images, email verified). */
export const userChangedResponse = successResponseSchema.extend({ user: userSchema });
export type UserChangedResponse = z.infer<typeof userChangedResponse>;

export const updateProfileInput = z.strictObject({
  fullName: singleLineText({ label: "Full name", max: 100 }),
  companyName: optionalSingleLineText({
    label: "Company name",
    max: 100,
    tooLongMessage: "Company name is too long",
  })
    .optional()
    .default(""),
});
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;

export const changePasswordInput = z.strictObject({
  currentPassword: z
    .string({ error: "Current password is required" })
    .max(200, "Password is too long")
    .default(""),
  newPassword: passwordSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

/**
 * The password that confirms a sensitive change (POST /api/user/delete, POST
 * /api/user/sign-out-everywhere); a Google-only account sends none (a recent sign-in confirms).
 */
export const passwordConfirmationInput = z.strictObject({
  password: z.string({ error: "Password is required" }).max(200, "Password is too long").optional(),
});
export type PasswordConfirmationInput = z.infer<typeof passwordConfirmationInput>;
export const deleteAccountInput = passwordConfirmationInput;

/** POST /api/user/sign-out-everywhere: how many other sessions ended. */
export const signOutEverywhereResponse = z.strictObject({
  success: z.literal(true),
  message: z.string(),
  endedSessions: z.number().int().nonnegative(),
});
export type DeleteAccountInput = PasswordConfirmationInput;

export const notificationDelaySchema = z
  .number({ error: "Delay must be a number of minutes" })
  .int("Delay must be a whole number of minutes")
  .min(1, "Delay must be between 1 and 60 minutes")
  .max(60, "Delay must be between 1 and 60 minutes");

export const notificationSettingsInput = z.strictObject({
  emailNotificationDelay: notificationDelaySchema,
});
export type NotificationSettingsInput = z.infer<typeof notificationSettingsInput>;

const colorSchema = z
  .string({ error: "Colour is required" })
  .trim()
  .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "Colours are written like #0093ff")
  .transform((value) => value.toLowerCase());

export const colorSchemeInput = z.strictObject({
  primaryColor: colorSchema,
  backgroundColor: colorSchema,
  textColor: colorSchema,
});
export type ColorSchemeInput = z.infer<typeof colorSchemeInput>;

export const accountTierInfoSchema = z.strictObject({
  currentTier: z.enum(TIERS),
  clientCount: z.number(),
  canCreateMore: z.boolean(),
  tierConfig: z.strictObject({
    name: z.string(),
    clientLimit: z.number().nullable(),
    logoSupport: z.boolean(),
    colorCustomization: z.boolean(),
  }),
  /** Bytes of conversation files kept, and the plan's quota (absent from older servers). */
  storage: z.strictObject({ usedBytes: z.number(), quotaBytes: z.number() }).optional(),
});
export type AccountTierInfo = z.infer<typeof accountTierInfoSchema>;
