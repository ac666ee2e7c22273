import { z } from "zod";
import { emailSchema } from "./common";
import { singleLineText } from "./text";
import { msg } from "../i18n/msg";

/** The most people one client can have (issue 26): a company's team, not a mailing list. */
export const MAX_CONTACTS = 10;

/** POST /api/clients/{id}/contacts: a further person of the client, invited by their own link. */
export const addContactInput = z.strictObject({
  name: singleLineText({
    max: 100,
    requiredMessage: msg("Name is required"),
    tooLongMessage: msg("Name is too long"),
  }),
  email: emailSchema,
  /** Also email the invite link to them (default: yes). */
  sendInviteEmail: z.boolean().optional().default(true),
});
export type AddContactInput = z.infer<typeof addContactInput>;

/**
 * One of a client's people as the API presents them. The first contact is the client itself
 * (its id is the client's id, `primary` true): it goes only with the client.
 */
export const contactSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  primary: z.boolean(),
  joinedAt: z.string().nullable(),
  /** Their own read mark: the newest message of the other side they have read (0: none). */
  lastReadSeq: z.number(),
  /** When they last read anything. */
  readAt: z.string().nullable(),
});
export type ContactPayload = z.infer<typeof contactSchema>;

/** POST answers the contact and their invite (the token joins through POST /api/invite/{token}). */
export const addedContactSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  inviteUrl: z.string(),
  inviteToken: z.string(),
});
export type AddedContactPayload = z.infer<typeof addedContactSchema>;
