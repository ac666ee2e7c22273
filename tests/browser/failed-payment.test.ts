import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { User } from "../../server/models";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient } from "../support/conversations";
import { type SignedInOwner, signUpOwner } from "../support/factories";
import { expectPath, expectToast, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";
import { deliverEvent, StripeStandIn, stripeEnv, stripeEvent } from "../support/stripe-stand-in";

/** Screenshots go to SCREENSHOT_DIR when set (e.g. /tmp/shots-billing). */
const screenshotDir = process.env.SCREENSHOT_DIR;

const WIDTHS = [
  { name: "desktop", viewport: { width: 1280, height: 860 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;

const mediumDate = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium" });

/**
 * An owner whose card failed gets from the dashboard's banner to a paid invoice without help;
 * plan changes say what they do; the plan's state reads the same in the plan box and settings.
 * Test mode (BILLING_MODE=test): the card is updated on our own labelled page.
 */
describe.skipIf(!browserAvailable)(
  "failed payment, plan changes and plan states in the browser",
  () => {
    let server: TestServer;
    let browser: Browser;

    beforeAll(async () => {
      [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
      if (screenshotDir) mkdirSync(screenshotDir, { recursive: true });
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const pageAs = (
      agent: { cookieHeader: string } | undefined,
      viewport: { width: number; height: number },
    ) => openPage(browser, server.url, agent, { viewport, defaultTimeout: 10_000 });

    async function shot(page: Page, name: string) {
      if (screenshotDir)
        await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
    }

    const expectAccessible = (page: Page, what: string) => expectNoSeriousAxeViolations(page, what);

    const form = (owner: SignedInOwner, url: string, fields: Record<string, string>) =>
      owner.agent.request("POST", url, {
        body: new URLSearchParams(fields).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });

    /** Pays a test-mode checkout from the API side (the checkout is not the point here). */
    async function subscribe(
      owner: SignedInOwner,
      tier: "pro" | "agency",
      period: "monthly" | "annual" = "monthly",
    ) {
      const checkout = await owner.agent.post("/api/subscription/create-checkout", {
        tier,
        period,
      });
      const session = new URL(checkout.body.url).searchParams.get("session")!;
      expect(
        (await form(owner, "/billing/test-checkout", { session, outcome: "pay" })).status,
      ).toBe(303);
    }

    async function ownerWithFailedCard(tier: "pro" | "agency" = "pro") {
      const owner = await signUpOwner(server, "Olivia Owner");
      await subscribe(owner, tier);
      expect((await form(owner, "/billing/test-mode/renewal", { outcome: "fail" })).status).toBe(
        303,
      );
      return owner;
    }

    const cardButton = (page: Page, tier: string) =>
      page.getByRole("region", { name: tier, exact: true }).getByRole("button");

    for (const { name, viewport } of WIDTHS) {
      it(`an owner with a failed card updates it from /pricing and the banner is gone (${name})`, async () => {
        const owner = await ownerWithFailedCard("pro");
        const page = await pageAs(owner.agent, viewport);
        await page.goto("/");
        const banner = page
          .getByRole("alert")
          .filter({ hasText: "Payment failed! Your account will be downgraded on" });
        await banner.waitFor();
        await shot(page, `failed-${name}-1-banner`);
        await banner.getByRole("link", { name: "Update Payment" }).click();

        await expectPath(page, "/pricing");
        const notice = page.getByRole("region", { name: "Your last payment failed" });
        await notice.getByText(/Update your payment method by .+ to keep your Pro plan/).waitFor();
        // It leads the page: above the plans.
        const noticeTop = (await notice.boundingBox())!.y;
        const plansTop = (await page
          .getByRole("region", { name: "Pro", exact: true })
          .boundingBox())!.y;
        expect(noticeTop).toBeLessThan(plansTop);
        await expectAccessible(page, "pricing with a failed payment");
        await shot(page, `failed-${name}-2-pricing`);

        await notice.getByRole("button", { name: "Update payment method" }).click();
        await expectPath(page, "/billing/test-mode/payment-method");
        await page.getByText("TEST MODE: no real payment is taken").waitFor();
        await page.getByRole("heading", { name: "Update payment method" }).waitFor();
        await page.getByLabel("Card number").waitFor();
        await expectAccessible(page, "test-mode payment page");
        await shot(page, `failed-${name}-3-card`);
        await page.getByRole("button", { name: "Save card and pay $10 (test)" }).click();

        await expectPath(page, "/pricing");
        await page.getByText("Payment method updated").waitFor();
        expect(await page.getByText("Your last payment failed").count()).toBe(0);
        await shot(page, `failed-${name}-4-paid`);

        await page.getByRole("link", { name: "Back to Dashboard" }).click();
        await expectPath(page, "/");
        await page.getByRole("region", { name: "Your plan" }).getByText("Pro plan").waitFor();
        expect(
          await page.getByText("Payment failed! Your account will be downgraded on").count(),
        ).toBe(0);
        expect((await owner.agent.get("/api/subscription/status")).body).toMatchObject({
          accountTier: "pro",
          subscriptionStatus: "active",
          paymentFailureGraceEnd: null,
        });
        await page.context().close();
      });
    }

    it("while the payment fails, /pricing's plan buttons lead to updating the card, not to a plan change", async () => {
      const owner = await ownerWithFailedCard("pro");
      const page = await pageAs(owner.agent, WIDTHS[1].viewport);
      await page.goto("/pricing");
      await page.getByRole("region", { name: "Your last payment failed" }).waitFor();
      const agency = page.getByRole("region", { name: "Agency", exact: true });
      await agency
        .getByText("Your last payment failed: update your payment method before changing plan.")
        .waitFor();
      expect(await cardButton(page, "Pro").textContent()).toBe("Current Plan");
      await expectAccessible(page, "pricing buttons while the payment fails");
      await shot(page, "failed-phone-plan-buttons");
      await cardButton(page, "Agency").click();
      await expectPath(page, "/billing/test-mode/payment-method");
      expect(await page.getByRole("dialog").count()).toBe(0);
      expect((await owner.agent.get("/api/subscription/status")).body).toMatchObject({
        accountTier: "pro",
        subscriptionStatus: "past_due",
      });
      await page.context().close();
    });

    it("saving a card when nothing is due says 'Card saved', not that a payment went through", async () => {
      const owner = await signUpOwner(server);
      await subscribe(owner, "pro");
      const page = await pageAs(owner.agent, WIDTHS[0].viewport);
      await page.goto("/billing/test-mode/payment-method");
      await page.getByRole("button", { name: "Save card (test)" }).click();
      await expectPath(page, "/pricing");
      await page.getByText("Card saved").waitFor();
      await page.getByText("Nothing was due, so nothing was charged.", { exact: false }).waitFor();
      expect(await page.getByText("Your payment went through").count()).toBe(0);
      expect(await page.getByText("Payment method updated").count()).toBe(0);
      await expectAccessible(page, "pricing after saving a card");
      await shot(page, "card-saved-desktop");
      await page.context().close();
    });

    it("pricing buttons say what they do for visitors and for free, pro and agency owners", async () => {
      const viewport = WIDTHS[0].viewport;
      const labels = async (page: Page) =>
        Promise.all(
          ["Free", "Pro", "Agency"].map(async (tier) => {
            const button = cardButton(page, tier);
            return `${await button.textContent()}${(await button.isDisabled()) ? " (disabled)" : ""}`;
          }),
        );
      const expectLabels = (page: Page, wanted: string[]) =>
        expect.poll(() => labels(page)).toEqual(wanted);

      const visitor = await pageAs(undefined, viewport);
      await visitor.goto("/pricing");
      await expectLabels(visitor, ["Get Started (disabled)", "Get Started", "Get Started"]);
      await visitor.context().close();

      const free = await signUpOwner(server);
      const freePage = await pageAs(free.agent, viewport);
      await freePage.goto("/pricing");
      await expectLabels(freePage, ["Current Plan (disabled)", "Upgrade", "Upgrade"]);
      await freePage.context().close();

      const pro = await signUpOwner(server);
      await subscribe(pro, "pro");
      const proPage = await pageAs(pro.agent, viewport);
      await proPage.goto("/pricing");
      await expectLabels(proPage, ["Downgrade", "Current Plan (disabled)", "Upgrade"]);
      await proPage.getByRole("button", { name: "Annual" }).click();
      await expectLabels(proPage, ["Downgrade", "Switch to Annual", "Upgrade"]);
      await shot(proPage, "buttons-pro-annual");
      await proPage.context().close();

      const agency = await signUpOwner(server);
      await subscribe(agency, "agency", "annual");
      const agencyPage = await pageAs(agency.agent, viewport);
      await agencyPage.goto("/pricing");
      // The toggle opens on the period the owner pays by.
      await expectLabels(agencyPage, ["Downgrade", "Downgrade", "Current Plan (disabled)"]);
      await expectAccessible(agencyPage, "pricing as an agency owner");
      await shot(agencyPage, "buttons-agency");
      await agencyPage.context().close();
    });

    for (const { name, viewport } of WIDTHS) {
      it(`a pro owner upgrades to agency after a prorated confirmation, on the same subscription (${name})`, async () => {
        const owner = await signUpOwner(server);
        await subscribe(owner, "pro");
        const before = await User.query(server.db).findById(owner.id).throwIfNotFound();
        const page = await pageAs(owner.agent, viewport);
        await page.goto("/pricing");
        await cardButton(page, "Agency").filter({ hasText: "Upgrade" }).click();
        const dialog = page.getByRole("dialog", { name: "Upgrade to Agency?" });
        await dialog.getByText("Pro · $10/month").waitFor();
        await dialog.getByText("Agency · $30/month").waitFor();
        await dialog.getByText(/The change is prorated/).waitFor();
        await expectAccessible(page, "plan change confirmation");
        await shot(page, `change-${name}-confirm`);
        await dialog.getByRole("button", { name: "Upgrade to Agency" }).click();
        await expectToast(page, "Plan changed");
        await expect.poll(() => cardButton(page, "Agency").textContent()).toBe("Current Plan");
        await expect.poll(() => cardButton(page, "Pro").textContent()).toBe("Downgrade");

        const after = await User.query(server.db).findById(owner.id).throwIfNotFound();
        expect(after).toMatchObject({
          accountTier: "agency",
          stripeSubscriptionId: before.stripeSubscriptionId,
        });

        // Down to Free is the cancellation flow, not a checkout.
        await cardButton(page, "Free").click();
        await page.getByRole("dialog", { name: "Cancel Subscription" }).waitFor();
        await page.context().close();
      });
    }

    it("sends a client user who opens /pricing to their own conversation", async () => {
      const owner = await signUpOwner(server);
      const client = await addJoinedClient(server, owner, { name: "Carla Client" });
      const page = await pageAs(client.agent, WIDTHS[1].viewport);
      await page.goto("/pricing");
      await expectPath(page, `/client/${client.id}`);
      expect(await page.getByText("Choose your plan").count()).toBe(0);
      await page.context().close();
    });

    for (const { name, viewport } of WIDTHS) {
      it(`shows paused and cancelling plans in the plan box and the subscription summary (${name})`, async () => {
        const paused = await signUpOwner(server);
        await subscribe(paused, "pro");
        const pause = await paused.agent.post("/api/subscription/pause-account", {
          pauseMonths: 2,
        });
        expect(pause.status).toBe(200);
        const pausedUntil = mediumDate(pause.body.status.pausedUntil);

        const cancelling = await signUpOwner(server);
        await subscribe(cancelling, "agency");
        await cancelling.agent.post("/api/subscription/start-cancellation", {
          reason: "not_using",
        });
        const cancelled = await cancelling.agent.post("/api/subscription/complete-cancellation");
        expect(cancelled.status).toBe(200);
        const endsOn = mediumDate(cancelled.body.status.subscriptionEndDate);

        for (const [owner, box, summary, label] of [
          [
            paused,
            `Paused until ${pausedUntil}`,
            `Paused until ${pausedUntil}; billing resumes then`,
            "paused",
          ],
          [cancelling, `Cancels on ${endsOn}`, `Cancels on ${endsOn}`, "cancelling"],
        ] as const) {
          const page = await pageAs(owner.agent, viewport);
          await page.goto("/");
          await page
            .getByRole("region", { name: "Your plan" })
            .getByText(box, { exact: true })
            .waitFor();
          await shot(page, `state-${name}-${label}-plan-box`);
          await page.getByRole("button", { name: "Account settings" }).click();
          const dialog = page.getByRole("dialog", { name: "Account Settings" });
          await dialog.getByRole("tab", { name: "Account" }).click();
          await dialog.getByText(summary, { exact: true }).waitFor();
          await expectAccessible(page, `account settings, ${label}`);
          await shot(page, `state-${name}-${label}-summary`);
          await page.context().close();
        }
      });
    }
  },
);

/** With Stripe: the same button opens the Customer Portal, and the paid invoice's event ends it. */
describe.skipIf(!browserAvailable)("failed payment with Stripe in the browser", () => {
  let server: TestServer;
  let browser: Browser;
  let standIn: StripeStandIn;

  beforeAll(async () => {
    standIn = new StripeStandIn();
    await standIn.start();
    [server, browser] = await Promise.all([
      startTestServer({ env: stripeEnv(standIn) }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await standIn?.stop();
  });

  it("opens the Customer Portal, and /pricing clears once Stripe reports the invoice paid", async () => {
    const owner = await signUpOwner(server);
    expect(
      (
        await owner.agent.post("/api/subscription/create-checkout", {
          tier: "pro",
          period: "monthly",
        })
      ).status,
    ).toBe(200);
    const user = await User.query(server.db).findById(owner.id).throwIfNotFound();
    const metadata = { userId: owner.id, tier: "pro", period: "monthly" };
    const subscription = standIn.addSubscription({
      customer: user.stripeCustomerId!,
      metadata,
      periodEnd: Math.floor(server.clock.now().getTime() / 1000) + 30 * 86_400,
    });
    const at = (seconds: number) => new Date(server.clock.now().getTime() + seconds * 1000);
    const session = {
      id: `cs_${subscription.id}`,
      mode: "subscription",
      customer: subscription.customer,
      subscription: subscription.id,
      client_reference_id: owner.id,
      payment_status: "paid",
      metadata,
    };
    const invoice = {
      id: "in_portal_test",
      object: "invoice",
      customer: subscription.customer,
      parent: {
        type: "subscription_details",
        subscription_details: { subscription: subscription.id },
      },
    };
    await deliverEvent(owner.agent, stripeEvent("checkout.session.completed", session, at(0)));
    await deliverEvent(owner.agent, stripeEvent("invoice.payment_failed", invoice, at(1)));

    const page = await openPage(browser, server.url, owner.agent, {
      viewport: WIDTHS[1].viewport,
      defaultTimeout: 10_000,
    });
    // Stripe's own page is not reachable from the tests: answer for it.
    await page.route("https://billing.stripe.com/**", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: "<title>Stripe Customer Portal</title><h1>Portal</h1>",
      }),
    );
    await page.goto("/pricing");
    const notice = page.getByRole("region", { name: "Your last payment failed" });
    await notice.getByRole("button", { name: "Update payment method" }).click();
    await expect.poll(() => page.url()).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    expect(standIn.requestsTo("POST", "/v1/billing_portal/sessions").at(-1)!.params).toEqual({
      customer: subscription.customer,
      return_url: `${server.url}/pricing`,
    });

    // Back on /pricing (the portal's return_url) before Stripe's event: the notice stays...
    await page.goto("/pricing");
    await notice.waitFor();
    // ...until the signed invoice.paid arrives; the page looks again on its own.
    expect(
      (await deliverEvent(owner.agent, stripeEvent("invoice.paid", invoice, at(2)))).status,
    ).toBe(200);
    await notice.waitFor({ state: "detached", timeout: 15_000 });
    await page.goto("/");
    await page.getByRole("region", { name: "Your plan" }).getByText("Pro plan").waitFor();
    expect(await page.getByText("Payment failed! Your account will be downgraded on").count()).toBe(
      0,
    );
    await page.context().close();
  });
});
