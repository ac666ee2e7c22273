import { z } from "zod";
import { msg } from "../i18n/msg";

/**
 * Retention of deleted clients (issue 28, point 5): how long a deleted client is kept for a
 * restore before it is removed for good. 0 removes it at once.
 */
export const RETENTION_CHOICES = [0, 7, 14, 30, 90] as const;
export type RetentionDays = (typeof RETENTION_CHOICES)[number];

/** RETENTION_CHOICES written out: a literal for the extractor (written-out-limits.test.ts). */
export const RETENTION_CHOICE_MESSAGE = msg("days must be one of 0, 7, 14, 30, 90");

/** PATCH /api/workspace/retention. */
export const retentionInput = z.strictObject({
  days: z
    .number({ error: RETENTION_CHOICE_MESSAGE })
    .refine(
      (days): days is RetentionDays => (RETENTION_CHOICES as readonly number[]).includes(days),
      { message: RETENTION_CHOICE_MESSAGE },
    ),
});
export type RetentionInput = z.infer<typeof retentionInput>;

/** GET and PATCH /api/workspace/retention: the workspace's setting. */
export const retentionSchema = z.strictObject({ days: z.number() });
export type Retention = z.infer<typeof retentionSchema>;

/** A deleted client that can still be restored, as GET /api/clients/deleted lists it. */
export const deletedClientSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  deletedAt: z.string(),
  /** Who deleted it, by name (null: that person has left the workspace since). */
  deletedBy: z.string().nullable(),
  /** When it is removed for good: its deletion plus the workspace's days as they are now. */
  purgeAt: z.string(),
});
export type DeletedClient = z.infer<typeof deletedClientSchema>;

/** How the dashboard says for how long a deleted client can be restored ("30 days"). */
export const retentionLabel = (days: number) => (days === 1 ? "1 day" : `${days} days`);
