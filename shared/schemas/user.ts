import { z } from "zod";
import { TIERS } from "../tiers";
import { languageSchema } from "./language";
import { passwordSchema, successResponseSchema } from "./common";
import { optionalSingleLineText, singleLineText } from "./text";
import { msg } from "../i18n/msg";

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
  /** The IANA zone last reported by the person's browser; null until one did (UTC). */
  timeZone: z.string().nullable().optional(),
  /**
   * The language this person reads (issue 29): their pick, else for a contact their client's
   * invite language, else for the staff their browser's; else the workspace's.
   */
  language: languageSchema,
  /** Whether `language` is the person's own pick (false: it follows the rules above). */
  languageChosen: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

/** Answer of the calls that change the signed-in user (settings, images, email verified). */
export const userChangedResponse = successResponseSchema.extend({ user: userSchema });
export type UserChangedResponse = z.infer<typeof userChangedResponse>;

export const updateProfileInput = z.strictObject({
  fullName: singleLineText({
    max: 100,
    requiredMessage: msg("Full name is required"),
    tooLongMessage: msg("Full name must be at most 100 characters"),
  }),
  companyName: optionalSingleLineText({
    max: 100,
    requiredMessage: msg("Company name must be text"),
    tooLongMessage: msg("Company name is too long"),
  })
    .optional()
    .default(""),
});
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;

export const changePasswordInput = z.strictObject({
  currentPassword: z
    .string({ error: msg("Current password is required") })
    .max(200, msg("Password is too long"))
    .default(""),
  newPassword: passwordSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

/**
 * The password that confirms a sensitive change (POST /api/user/delete, POST
 * /api/user/sign-out-everywhere); a Google-only account sends none (a recent sign-in confirms).
 */
export const passwordConfirmationInput = z.strictObject({
  password: z
    .string({ error: msg("Password is required") })
    .max(200, msg("Password is too long"))
    .optional(),
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
  .number({ error: msg("Delay must be a number of minutes") })
  .int(msg("Delay must be a whole number of minutes"))
  .min(1, msg("Delay must be between 1 and 60 minutes"))
  .max(60, msg("Delay must be between 1 and 60 minutes"));

export const notificationSettingsInput = z.strictObject({
  emailNotificationDelay: notificationDelaySchema,
});
export type NotificationSettingsInput = z.infer<typeof notificationSettingsInput>;

const colorSchema = z
  .string({ error: msg("Colour is required") })
  .trim()
  .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, msg("Colours are written like #0093ff"))
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
