import { z } from "zod";
import { msg } from "../i18n/msg";

/** base64url without padding, as PushSubscription.toJSON() gives the keys; messages written out. */
const base64url = (messages: { required: string; invalid: string }, min: number, max: number) =>
  z
    .string({ error: messages.required })
    .min(min, messages.invalid)
    .max(max, messages.invalid)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, messages.invalid);

/** A push service's address for one browser; checked further on the server (server/push/endpoint-guard.ts). */
export const pushEndpointSchema = z
  .string({ error: msg("Endpoint is required") })
  .trim()
  .min(1, msg("Endpoint is required"))
  .max(2000, msg("Endpoint is too long"))
  .pipe(z.url({ error: msg("Endpoint must be a URL") }));

/** POST /api/push/subscriptions: PushSubscription.toJSON() (expirationTime is ignored). */
export const savePushSubscriptionInput = z.strictObject({
  endpoint: pushEndpointSchema,
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject(
    {
      // A P-256 public key: 65 bytes, 87 characters of base64url.
      p256dh: base64url(
        {
          required: msg("keys.p256dh is required"),
          invalid: msg("keys.p256dh is not a valid key"),
        },
        80,
        100,
      ),
      // 16 bytes: 22 characters.
      auth: base64url(
        { required: msg("keys.auth is required"), invalid: msg("keys.auth is not a valid key") },
        16,
        32,
      ),
    },
    { error: msg("keys are required") },
  ),
});
export type SavePushSubscriptionInput = z.infer<typeof savePushSubscriptionInput>;

/** DELETE /api/push/subscriptions: this browser's endpoint. */
export const deletePushSubscriptionInput = z.strictObject({ endpoint: pushEndpointSchema });
export type DeletePushSubscriptionInput = z.infer<typeof deletePushSubscriptionInput>;

/** GET /api/push/public-key: the server's VAPID public key (applicationServerKey). */
export const pushPublicKeyResponse = z.strictObject({ publicKey: z.string() });
export type PushPublicKeyResponse = z.infer<typeof pushPublicKeyResponse>;

/** What the service worker receives in a push (server/push/push-payload.ts builds it). */
export const pushPayloadSchema = z.strictObject({
  title: z.string(),
  body: z.string(),
  /** The conversation, to open on a tap. */
  url: z.string(),
  /** One notification per conversation: a newer one replaces it. */
  tag: z.string(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
