import { z } from "zod";
import { brandShadesSchema } from "./branding";
import { emailSchema } from "./common";
import { clientLanguageSchema } from "./language";
import { singleLineText } from "./text";
import { notificationDelaySchema } from "./user";
import { msg } from "../i18n/msg";

export const addClientInput = z.strictObject({
  name: singleLineText({
    max: 100,
    requiredMessage: msg("Name is required"),
    tooLongMessage: msg("Name is too long"),
  }),
  email: emailSchema,
  /** Also email the invite link to the client. */
  sendInviteEmail: z.boolean().optional().default(false),
  /** The invite's (and portal's) language until a contact picks one; null: the workspace's. */
  language: clientLanguageSchema.optional().default(null),
});
export type AddClientInput = z.infer<typeof addClientInput>;

export const clientNotificationSettingsInput = z.strictObject({
  emailNotificationDelay: notificationDelaySchema,
});
export type ClientNotificationSettingsInput = z.infer<typeof clientNotificationSettingsInput>;

/** What a client sees of its owner (for branding the portal). */
export const clientOwnerSchema = z.strictObject({
  fullName: z.string(),
  companyName: z.string().nullable(),
  accountTier: z.enum(["free", "pro", "agency"]),
  companyLogo: z.string().nullable(),
  profilePicture: z.string().nullable(),
  primaryColor: z.string(),
  backgroundColor: z.string(),
  textColor: z.string(),
  /**
   * The readable shades of the scheme the portal shows: these colours on the Agency plan, the
   * defaults on the others.
   */
  shades: brandShadesSchema,
});

/** A client as the API presents it (owner list and details). */
export const clientSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  /** The live invite token while the client has not joined (owners only), else null. */
  inviteToken: z.string().nullable(),
  joinedAt: z.string().nullable(),
  emailNotificationDelay: z.number(),
  createdAt: z.string(),
  /** Messages to the viewer that the viewer has not read. */
  unreadCount: z.number(),
  /** The last message came from the other side and waits for the viewer's answer. */
  awaitingReply: z.boolean(),
  lastMessageAt: z.string().nullable(),
  /** The owner's files that require feedback and still wait for the client's decision. */
  pendingApprovals: z.number(),
  owner: clientOwnerSchema,
  /** Issue 29: the invite language its owner set; null follows the workspace's. */
  language: clientLanguageSchema,
});
export type ClientPayload = z.infer<typeof clientSchema>;

/** The most people one client can be assigned to. */
export const MAX_ASSIGNEES = 50;

/**
 * PUT /api/clients/{id}/assignees: who handles the client, replacing who did. The lead is one
 * of them (the first when not named; null: none).
 */
export const clientAssigneesInput = z
  .strictObject({
    userIds: z
      .array(z.uuid({ error: msg("Assign people of your team") }), {
        error: msg("userIds must be a list of team members"),
      })
      .max(MAX_ASSIGNEES, msg("A client can have at most 50 assignees"))
      .transform((ids) => [...new Set(ids)]),
    leadUserId: z
      .uuid({ error: msg("Assign people of your team") })
      .nullable()
      .optional(),
  })
  .transform(({ userIds, leadUserId }) => ({
    userIds,
    leadUserId: leadUserId === undefined ? (userIds[0] ?? null) : leadUserId,
  }))
  .refine(({ userIds, leadUserId }) => leadUserId === null || userIds.includes(leadUserId), {
    message: msg("The lead must be one of the assignees"),
  });
export type ClientAssigneesInput = z.infer<typeof clientAssigneesInput>;

/** GET and PUT /api/clients/{id}/assignees: who handles the client, for its staff. */
export const clientAssigneesResponse = z.strictObject({
  assigneeIds: z.array(z.string()),
  leadUserId: z.string().nullable(),
});
export type ClientAssignees = z.infer<typeof clientAssigneesResponse>;

export const addClientResponse = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  inviteUrl: z.string(),
  /** Null on the free plan, where short links are not offered. */
  shortInviteUrl: z.string().nullable(),
  inviteToken: z.string(),
  /** Whether the invite email went out (false when not asked for, or when sending failed). */
  inviteEmailSent: z.boolean(),
});
export type AddClientResponse = z.infer<typeof addClientResponse>;

export const inviteLinkResponse = z.strictObject({
  inviteUrl: z.string(),
  inviteToken: z.string(),
});
export type InviteLinkResponse = z.infer<typeof inviteLinkResponse>;

export const shortLinkResponse = z.strictObject({ shortUrl: z.string(), inviteToken: z.string() });
export type ShortLinkResponse = z.infer<typeof shortLinkResponse>;
export const resolveShortLinkResponse = z.strictObject({ inviteToken: z.string() });
export type ResolveShortLinkResponse = z.infer<typeof resolveShortLinkResponse>;
/** POST /api/invite/{token} and POST /api/client-sign-in: this browser is now the client. */
export const acceptInviteResponse = z.strictObject({
  success: z.literal(true),
  clientId: z.string(),
  message: z.string(),
});
export type AcceptInviteResponse = z.infer<typeof acceptInviteResponse>;

export const clientSignInLinkInput = z.strictObject({ email: emailSchema });
export const clientSignInInput = z.strictObject({
  token: z
    .string({ error: msg("Sign-in link is invalid") })
    .min(20, msg("Sign-in link is invalid"))
    .max(200),
});
