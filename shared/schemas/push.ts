import { z } from "zod";

/** base64url without padding, as PushSubscription.toJSON() gives the keys. */
const base64url = (label: string, min: number, max: number) =>
  z
    .string({ error: `${label} is required` })
    .min(min, `${label} is not a valid key`)
    .max(max, `${label} is not a valid key`)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${label} is not a valid key`);

/** A push service's address for one browser; checked further on the server (server/push/endpoint-guard.ts). */
export const pushEndpointSchema = z
  .string({ error: "Endpoint is required" })
  .trim()
  .min(1, "Endpoint is required")
  .max(2000, "Endpoint is too long")
  .pipe(z.url({ error: "Endpoint must be a URL" }));

/** POST /api/push/subscriptions: PushSubscription.toJSON() (expirationTime is ignored). */
export const savePushSubscriptionInput = z.strictObject({
  endpoint: pushEndpointSchema,
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject(
    {
      // A P-256 public key: 65 bytes, 87 characters of base64url.
      p256dh: base64url("keys.p256dh", 80, 100),
      // 16 bytes: 22 characters.
      auth: base64url("keys.auth", 16, 32),
    },
    { error: "keys are required" },
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
