import { PLANS, TIER_CONFIG } from "../../shared/tiers";
import type { User } from "../models";
import type { TestCheckoutSession } from "./test-checkout-token";
import { renewalCents } from "./test-mode-events";

/** The test-mode pages: plain server-made HTML, unmistakably not a real payment page. */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ClientDesk</title>
<style>
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; background: #f4f6f8; color: #111; }
  .test-banner { background: #ffb020; color: #111; font-weight: 700; text-align: center; padding: 10px; letter-spacing: .02em; }
  main { max-width: 480px; margin: 40px auto; background: #fff; border-radius: 12px; padding: 28px; box-shadow: 0 1px 3px rgba(0,0,0,.12); }
  h1 { font-size: 22px; margin: 0 0 8px; }
  .muted { color: #555; }
  .price { font-size: 32px; font-weight: 700; margin: 16px 0 4px; }
  .error { background: #fdecec; color: #a40000; border: 1px solid #f3b4b4; border-radius: 8px; padding: 10px 12px; margin: 16px 0; }
  form { display: flex; flex-direction: column; gap: 10px; margin-top: 20px; }
  button { font: inherit; font-weight: 600; border: 0; border-radius: 8px; padding: 12px; cursor: pointer; }
  /* #0093ff under white text is 3.2:1; this darker brand shade passes AA (5.2:1). */
  .pay { background: #006fc2; color: #fff; }
  .fail { background: #fff; color: #a40000; border: 1px solid #a40000; }
  label { display: flex; flex-direction: column; gap: 4px; font-weight: 600; font-size: 14px; }
  input { font: inherit; font-weight: 400; padding: 10px 12px; border: 1px solid #8a94a0; border-radius: 8px; width: 100%; min-width: 0; box-sizing: border-box; }
  .row { display: flex; gap: 10px; } .row label { flex: 1; min-width: 0; }
  @media (max-width: 520px) { main { margin: 16px; padding: 20px; } }
  .hint { font-size: 14px; color: #555; margin: 0; }
  a { color: #0070c4; }
</style>
</head>
<body>
<div class="test-banner" role="note">TEST MODE: no real payment is taken. Stripe is not configured on this server.</div>
<main>${body}</main>
</body>
</html>`;
}

export function testCheckoutPage(
  session: TestCheckoutSession,
  token: string,
  error?: string,
): string {
  const plan = PLANS.find((candidate) => candidate.tier === session.tier)!;
  const annual = session.period === "annual";
  const price = annual ? plan.annualPrice : plan.monthlyPrice;
  return layout(
    "Test checkout",
    `<h1>Test checkout: ${escapeHtml(TIER_CONFIG[session.tier].name)} plan</h1>
<p class="muted">Billed ${annual ? "annually" : "monthly"}. Choose how this simulated payment ends.</p>
<p class="price">$${price}<span class="muted">/${annual ? "year" : "month"}</span></p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/billing/test-checkout">
  <input type="hidden" name="session" value="${escapeHtml(token)}">
  <button class="pay" name="outcome" value="pay">Pay $${price} (test)</button>
  <button class="fail" name="outcome" value="decline">Decline the payment (test)</button>
</form>
<p><a href="/pricing">Back to Pricing</a></p>`,
  );
}

export function testModeMissingPage(): string {
  return layout(
    "Test checkout",
    `<h1>This test checkout has expired</h1>
<p class="muted">Start again from the pricing page.</p>
<p><a href="/pricing">Back to Pricing</a></p>`,
  );
}

/** Renewal simulation for the owner's test subscription. */
export function testRenewalPage(user: User): string {
  if (!user.stripeSubscriptionId || user.accountTier === "free") {
    return layout(
      "Test billing",
      `<h1>No paid plan</h1>
<p class="muted">Subscribe from the pricing page first.</p>
<p><a href="/pricing">Go to Pricing</a></p>`,
    );
  }
  return layout(
    "Test billing",
    `<h1>Simulate a renewal</h1>
<p class="muted">Your ${escapeHtml(TIER_CONFIG[user.accountTier].name)} plan (${escapeHtml(user.subscriptionStatus)}). A failed
payment starts the 24-hour grace period; a paid one ends it.</p>
<form method="post" action="/billing/test-mode/renewal">
  <button class="pay" name="outcome" value="succeed">Renewal payment succeeds</button>
  <button class="fail" name="outcome" value="fail">Renewal payment fails</button>
</form>
<p><a href="/">Back to Dashboard</a></p>`,
  );
}

/**
 * Test mode's stand-in for Stripe's Customer Portal: a card form, and paying the failed
 * invoice with it (what the portal does when a card is updated on a past_due subscription).
 */
export function testPaymentMethodPage(user: User, error?: string): string {
  const tier = user.accountTier;
  if (!user.stripeSubscriptionId || tier === "free") return testRenewalPage(user);
  const failing = user.subscriptionStatus === "past_due";
  const dollars = renewalCents(user) / 100;
  const plan = TIER_CONFIG[tier].name;
  return layout(
    "Update payment method",
    `<h1>Update payment method</h1>
<p class="muted">${
      failing
        ? `Your last payment of $${dollars} for the ${escapeHtml(plan)} plan failed. Save a card to pay it now; your plan continues as it is.`
        : `Your ${escapeHtml(plan)} plan is paid up. The card you save pays your next invoices.`
    }</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/billing/test-mode/payment-method">
  <p class="hint">Test card details: nothing you type here leaves this page.</p>
  <label>Card number<input inputmode="numeric" autocomplete="off" value="4242 4242 4242 4242"></label>
  <div class="row">
    <label>Expiry<input autocomplete="off" value="12 / 34"></label>
    <label>CVC<input inputmode="numeric" autocomplete="off" value="123"></label>
  </div>
  <button class="pay" name="outcome" value="pay">${failing ? `Save card and pay $${dollars} (test)` : "Save card (test)"}</button>
  <button class="fail" name="outcome" value="decline">Use a card that is declined (test)</button>
</form>
<p><a href="/pricing">Back to Pricing</a></p>`,
  );
}
