import Stripe from "stripe";
import type { Config } from "../config";

type StripeConfig = NonNullable<Config["stripe"]>;

/**
 * The Stripe SDK client. STRIPE_API_BASE points it elsewhere (tests use a local stand-in for
 * the few endpoints we call); otherwise it talks to api.stripe.com.
 */
export function createStripeClient(config: StripeConfig): Stripe {
  const base = config.apiBase ? new URL(config.apiBase) : undefined;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: "ClientDesk" },
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === "https:" ? 443 : 80),
          protocol: base.protocol === "http:" ? "http" : "https",
        }
      : {}),
  });
}
