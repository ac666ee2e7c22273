import http from "node:http";
import https from "node:https";
import webpush from "web-push";
import type { PushPayload } from "../../shared/schemas/push";
import type { Services } from "../context";
import { PushSubscription } from "../models";
import { type EndpointGuardOptions, isAllowedPushEndpoint, pushAgent } from "./endpoint-guard";

/** A push waits this long for the push service; it is best effort (the email follows anyway). */
const PUSH_TIMEOUT_MS = 10_000;
/** A push service keeps an undelivered push this long (the phone may be off): one day. */
const PUSH_TTL_SECONDS = 24 * 60 * 60;

type SenderServices = Pick<Services, "config" | "db" | "logger" | "clock">;

export type PushOutcome = "sent" | "gone" | "failed";

let sharedAgent: https.Agent | undefined;

/** One agent for every push (its connections are kept alive between pushes). */
function agent(): https.Agent {
  sharedAgent ??= pushAgent();
  return sharedAgent;
}

export function guardOptions(config: Services["config"]): EndpointGuardOptions {
  return { testOrigins: config.pushTestOrigins, production: config.env === "production" };
}

/**
 * Encrypts `payload` for one browser (aes128gcm, with the subscription's own keys), signs the
 * request with the VAPID keys and POSTs it to the browser's push service. 404 and 410 mean the
 * subscription is gone: its row is deleted. Other failures are logged; the row stays.
 */
export async function sendPush(
  services: SenderServices,
  subscription: PushSubscription,
  payload: PushPayload,
): Promise<PushOutcome> {
  const guard = guardOptions(services.config);
  if (!isAllowedPushEndpoint(subscription.endpoint, guard)) {
    // Saved under other rules (e.g. a test origin); never sent to.
    await PushSubscription.query(services.db).deleteById(subscription.id);
    return "gone";
  }
  const details = webpush.generateRequestDetails(
    {
      endpoint: subscription.endpoint,
      keys: { p256dh: subscription.p256dh, auth: subscription.auth },
    },
    JSON.stringify(payload),
    {
      vapidDetails: services.config.vapid,
      contentEncoding: "aes128gcm",
      TTL: PUSH_TTL_SECONDS,
      urgency: "high",
      // The push service keeps only the newest undelivered push of a conversation.
      topic: payload.tag.replace(/[^A-Za-z0-9_-]/g, "").slice(-32),
    },
  );
  let status: number;
  try {
    status = await post(
      details.endpoint,
      details.headers as Record<string, string | number>,
      details.body,
      guard,
    );
  } catch (error) {
    services.logger.warn(
      { err: error, subscriptionId: subscription.id },
      "push: could not reach the push service",
    );
    return "failed";
  }
  if (status === 404 || status === 410) {
    await PushSubscription.query(services.db).deleteById(subscription.id);
    services.logger.info(
      { subscriptionId: subscription.id, status },
      "push: subscription gone, removed",
    );
    return "gone";
  }
  if (status < 200 || status > 299) {
    services.logger.warn(
      { subscriptionId: subscription.id, status },
      "push: the push service refused",
    );
    return "failed";
  }
  await PushSubscription.query(services.db)
    .findById(subscription.id)
    .patch({ lastSuccessAt: services.clock.now() });
  return "sent";
}

/**
 * One POST; resolves to the answer's status. Plain http only for the tests' origins (outside
 * production, isAllowedPushEndpoint checked it); https otherwise, through the agent whose DNS
 * lookup refuses private addresses.
 */
function post(
  endpoint: string,
  headers: Record<string, string | number>,
  body: Buffer | null,
  guard: EndpointGuardOptions,
): Promise<number> {
  const url = new URL(endpoint);
  const plain =
    url.protocol === "http:" && !guard.production && guard.testOrigins.includes(url.origin);
  return new Promise((resolve, reject) => {
    const options = { method: "POST", headers, timeout: PUSH_TIMEOUT_MS };
    const request = plain
      ? http.request(url, options)
      : https.request(url, { ...options, agent: agent() });
    request.on("response", (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error("push service timed out")));
    request.on("error", reject);
    request.end(body ?? undefined);
  });
}
