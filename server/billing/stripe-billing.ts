import Stripe from "stripe";
import type { PaidTier } from "../../shared/schemas/billing";
import {
  type BillingPeriod,
  planPriceCents,
  SEAT_TIER,
  seatPriceCents,
  TIER_CONFIG,
} from "../../shared/tiers";
import type { Config } from "../config";
import type { Services } from "../context";
import { conflict, paymentRequired } from "../errors";
import { User } from "../models";
import type { BillingProvider } from "./billing-provider";
import { isSeatItem, seatLookupKey } from "./seat-item";
import { createStripeClient } from "./stripe-client";
import { TEST_CUSTOMER_PREFIX } from "./test-mode-events";

/**
 * Billing through Stripe, with prices from shared/tiers.ts, so no price ids need setting up in
 * the Stripe dashboard: a checkout gives its price inline (price_data); a plan change needs a
 * Price object, made once and found again by its lookup key (priceFor). The plan travels in
 * metadata on the session and the subscription, where the webhook reads it back.
 */
export class StripeBilling implements BillingProvider {
  readonly testMode = false;
  private readonly stripe: Stripe;

  constructor(
    private readonly services: Services,
    config: NonNullable<Config["stripe"]>,
  ) {
    this.stripe = createStripeClient(config);
  }

  async createCheckout(user: User, tier: PaidTier, period: BillingPeriod): Promise<string> {
    const customer = await this.customerFor(user);
    const metadata = { userId: user.id, tier, period };
    const appUrl = this.services.config.appUrl;
    const session = await this.stripe.checkout.sessions.create({
      mode: "subscription",
      customer,
      client_reference_id: user.id,
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: "usd",
            unit_amount: planPriceCents(tier, period),
            recurring: { interval: period === "annual" ? "year" : "month" },
            product_data: { name: `ClientDesk ${TIER_CONFIG[tier].name}` },
          },
        },
      ],
      metadata,
      subscription_data: { metadata },
      success_url: `${appUrl}/?subscription=success`,
      cancel_url: `${appUrl}/pricing`,
    });
    if (!session.url) throw new Error("Stripe answered a checkout session without a url");
    return session.url;
  }

  /**
   * The same subscription on the new price. Within the same interval Stripe prorates the
   * difference on the next invoice; a new interval starts a new period and is invoiced at once.
   * error_if_incomplete: if that invoice's payment fails, Stripe keeps the old plan and
   * answers a card error (402 here) instead of moving the plan onto an unpaid invoice.
   * A scheduled cancellation ends: choosing a paid plan means staying.
   * Extra seats follow the plan (issue 26): the seat item moves to the new interval's price, or
   * goes (prorated like the plan) when the new plan is not Agency.
   */
  async changePlan(user: User, tier: PaidTier, period: BillingPeriod): Promise<unknown> {
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionOf(user));
    const { plan: item, seats } = this.itemsOf(subscription);
    if (!item) throw conflict("The subscription has no plan to change");
    const price = await this.priceFor(tier, period);
    const items: Stripe.SubscriptionUpdateParams.Item[] = [{ id: item.id, price }];
    if (seats && tier !== SEAT_TIER) items.push({ id: seats.id, deleted: true });
    else if (seats) items.push({ id: seats.id, price: await this.seatPriceFor(period) });
    try {
      return await this.stripe.subscriptions.update(subscription.id, {
        items,
        proration_behavior: "create_prorations",
        payment_behavior: "error_if_incomplete",
        cancel_at_period_end: false,
        metadata: { userId: user.id, tier, period },
      });
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError)
        // Stripe's own sentence (in its words), then ours in the reader's language.
        throw paymentRequired("{{stripeMessage}} Your plan has not changed.", {
          stripeMessage: error.message,
        });
      throw error;
    }
  }

  /**
   * The seat item's quantity. Adding seats is prorated now (the rest of the period is on the
   * next invoice, as a same-interval plan change is); removing them uses proration_behavior
   * "none": no credit for the paid period, the renewal bills fewer. No seat item at 0.
   */
  async setExtraSeats(user: User, extra: number): Promise<unknown> {
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionOf(user));
    const { seats } = this.itemsOf(subscription);
    const current = seats?.quantity ?? 0;
    const period = user.billingPeriod === "annual" ? "annual" : "monthly";
    const item: Stripe.SubscriptionUpdateParams.Item = !seats
      ? { price: await this.seatPriceFor(period), quantity: extra }
      : extra === 0
        ? { id: seats.id, deleted: true }
        : { id: seats.id, quantity: extra };
    return this.stripe.subscriptions.update(subscription.id, {
      items: [item],
      proration_behavior: extra > current ? "create_prorations" : "none",
    });
  }

  /** The plan's item and the seat item (if any) of a subscription. */
  private itemsOf(subscription: Stripe.Subscription) {
    const items = subscription.items.data;
    return { plan: items.find((each) => !isSeatItem(each)), seats: items.find(isSeatItem) };
  }

  /** The price of one extra seat at this interval, made once and found by its lookup key. */
  private async seatPriceFor(period: BillingPeriod): Promise<string> {
    const lookupKey = seatLookupKey(period);
    const found = await this.stripe.prices.list({
      lookup_keys: [lookupKey],
      active: true,
      limit: 1,
    });
    if (found.data[0]) return found.data[0].id;
    const price = await this.stripe.prices.create(
      {
        currency: "usd",
        unit_amount: seatPriceCents(period),
        recurring: { interval: period === "annual" ? "year" : "month" },
        product_data: { name: "ClientDesk extra seat" },
        lookup_key: lookupKey,
        transfer_lookup_key: true,
      },
      { idempotencyKey: `price-${lookupKey}` },
    );
    return price.id;
  }

  /**
   * A Customer Portal session (configured in the Stripe dashboard): the owner updates the card
   * there and the open invoice is paid with it (in the portal, or by Stripe's next retry);
   * invoice.paid then ends the grace period.
   */
  async paymentMethodUrl(user: User): Promise<string> {
    const customer = user.stripeCustomerId;
    if (!customer || customer.startsWith(TEST_CUSTOMER_PREFIX))
      throw conflict("There is no Stripe customer to update: subscribe to a plan first");
    const session = await this.stripe.billingPortal.sessions.create({
      customer,
      return_url: `${this.services.config.appUrl}/pricing`,
    });
    return session.url;
  }

  async applyDiscount(user: User, amountCents: number): Promise<unknown> {
    const coupon = await this.stripe.coupons.create({
      amount_off: amountCents,
      currency: "usd",
      duration: "once",
      name: "Thanks for staying",
    });
    return this.stripe.subscriptions.update(subscriptionOf(user), {
      discounts: [{ coupon: coupon.id }],
    });
  }

  pause(user: User, resumesAt: Date): Promise<unknown> {
    return this.stripe.subscriptions.update(subscriptionOf(user), {
      pause_collection: { behavior: "void", resumes_at: Math.floor(resumesAt.getTime() / 1000) },
    });
  }

  setCancelAtPeriodEnd(user: User, cancel: boolean): Promise<unknown> {
    return this.stripe.subscriptions.update(subscriptionOf(user), { cancel_at_period_end: cancel });
  }

  async cancelNow(subscriptionId: string): Promise<void> {
    await this.stripe.subscriptions.cancel(subscriptionId);
  }

  /**
   * The plan's recurring price, made once and found again by its lookup key (the amount is in
   * the key, so a price change in shared/tiers.ts makes a new price instead of reusing the old).
   */
  private async priceFor(tier: PaidTier, period: BillingPeriod): Promise<string> {
    const amount = planPriceCents(tier, period);
    const lookupKey = `clientdesk_${tier}_${period}_${amount}`;
    const found = await this.stripe.prices.list({
      lookup_keys: [lookupKey],
      active: true,
      limit: 1,
    });
    if (found.data[0]) return found.data[0].id;
    const price = await this.stripe.prices.create(
      {
        currency: "usd",
        unit_amount: amount,
        recurring: { interval: period === "annual" ? "year" : "month" },
        product_data: { name: `ClientDesk ${TIER_CONFIG[tier].name}` },
        lookup_key: lookupKey,
        transfer_lookup_key: true,
      },
      { idempotencyKey: `price-${lookupKey}` },
    );
    return price.id;
  }

  /**
   * One Stripe customer per owner, made on the first checkout; events find the owner by it.
   * A customer id left by test mode (before Stripe keys were set) is replaced.
   */
  private async customerFor(user: User): Promise<string> {
    const current = user.stripeCustomerId;
    if (current && !current.startsWith(TEST_CUSTOMER_PREFIX)) return current;
    const customer = await this.stripe.customers.create(
      { email: user.email, name: user.fullName, metadata: { userId: user.id } },
      { idempotencyKey: `customer-${user.id}` },
    );
    await User.query(this.services.db)
      .findById(user.id)
      .where((q) =>
        q
          .whereNull("stripeCustomerId")
          .orWhere("stripeCustomerId", "like", `${TEST_CUSTOMER_PREFIX}%`),
      )
      .patch({ stripeCustomerId: customer.id });
    const saved = await User.query(this.services.db).findById(user.id).throwIfNotFound();
    return saved.stripeCustomerId ?? customer.id;
  }
}

function subscriptionOf(user: User): string {
  if (!user.stripeSubscriptionId) throw conflict("There is no paid subscription to change");
  return user.stripeSubscriptionId;
}
