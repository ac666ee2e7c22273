import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { type BillingPeriod, PLANS, type Tier } from "../../../shared/tiers";
import { useCurrentUser } from "../api/current-user";
import { Alert } from "../ui/alert";
import { buttonClassName } from "../ui/button";
import { FullPageRedirect } from "../ui/full-page-redirect";
import { ArrowLeftIcon } from "../ui/icons";
import { Logo } from "../ui/logo";
import { CenteredSpinner } from "../ui/spinner";
import { useToast } from "../ui/toast";
import { BillingPeriodToggle } from "./billing-period-toggle";
import { useBillingMode } from "./billing-mode-query";
import { CancelSubscriptionDialog } from "./cancel-subscription-dialog";
import { PaymentFailedNotice } from "./payment-failed-notice";
import { usePaymentMethodUpdate } from "./payment-method-mutation";
import { type OwnerPlan, planAction } from "./plan-action";
import { PlanCard } from "./plan-card";
import { PlanChangeDialog, type PlanChoice } from "./plan-change-dialog";
import { useSubscriptionStatus } from "./subscription-status-query";
import { TestModeBar } from "./test-mode-bar";
import "./billing.css";

export function PricingPage() {
  const { data: user, isPending } = useCurrentUser();
  // A client user has no plan: their place is their own conversation, not the plan chooser.
  if (user?.role === "client") {
    return (
      <FullPageRedirect
        to={user.clientId ? `/client/${encodeURIComponent(user.clientId)}` : "/client"}
      />
    );
  }
  if (isPending) return <CenteredSpinner />;
  return <Pricing signedInOwner={user?.role === "owner"} />;
}

function Pricing({ signedInOwner }: { signedInOwner: boolean }) {
  const [chosenPeriod, setPeriod] = useState<BillingPeriod | null>(null);
  const [searchParams] = useSearchParams();
  const { data: user } = useCurrentUser();
  const { data: status } = useSubscriptionStatus({
    enabled: signedInOwner,
    pollWhileFailing: true,
  });
  const [planChoice, setPlanChoice] = useState<PlanChoice | null>(null);
  const [cancelOpen, setCancelOpen] = useState(false);
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useTranslation("billing");
  const updatePayment = usePaymentMethodUpdate();
  const checkoutFailed = searchParams.get("error") === "checkout-failed";
  const cardUpdated = searchParams.get("payment-method") === "updated";
  const cardSaved = searchParams.get("payment-method") === "saved";
  // Billing off (self-hosted): nothing to buy, every owner already has every feature.
  const offline = useBillingMode() === "off";

  // An owner's buttons say what they do from the current plan; if the status cannot be
  // read, the plan on the user record stands in.
  const ownerPlan: OwnerPlan | null = !signedInOwner
    ? null
    : (status ?? {
        accountTier: user?.accountTier ?? "free",
        billingPeriod: null,
        cancelAtPeriodEnd: false,
        subscriptionEndDate: null,
        paymentFailureGraceEnd: null,
      });
  // The toggle opens on the period the owner pays by, so the current plan shows as such.
  const period: BillingPeriod =
    chosenPeriod ?? (status?.billingPeriod === "annual" ? "annual" : "monthly");

  const choose = (tier: Tier) => {
    if (!signedInOwner) {
      toast({
        title: t("Please log in"),
        description: t("You need to be logged in to upgrade your account."),
      });
      navigate("/auth");
      return;
    }
    const action = planAction(tier, period, ownerPlan);
    if (action.kind === "change") setPlanChoice({ tier, period, action });
    else if (action.kind === "update-payment") updatePayment.mutate();
    else if (action.kind === "cancel") setCancelOpen(true);
    else if (action.kind === "checkout") navigate(`/subscribe?tier=${tier}&period=${period}`);
  };

  if (offline) return <Navigate to="/" replace />;
  // Buttons that said "Get Started" and then "Downgrade" would mislead: wait for the plan.
  if (signedInOwner && status === undefined) return <CenteredSpinner />;

  return (
    <div className="pricing">
      <TestModeBar />
      <header className="pricing__bar">
        <Link to="/" className={buttonClassName("ghost")}>
          <ArrowLeftIcon />
          {t("Back to Dashboard")}
        </Link>
        <Logo />
      </header>
      <main className="pricing__main">
        <div className="pricing__intro">
          <h1 className="pricing__title">{t("Choose your plan")}</h1>
          <p className="pricing__subtitle">
            {t("Start free with one client. Upgrade when your client list grows.")}
          </p>
        </div>
        {status?.paymentFailureGraceEnd && <PaymentFailedNotice status={status} />}
        {cardUpdated && status && !status.paymentFailureGraceEnd && (
          <div className="pricing__alert">
            <Alert title={t("Payment method updated")}>
              {t("Your payment went through. Your plan continues as before.")}
            </Alert>
          </div>
        )}
        {cardSaved && status && !status.paymentFailureGraceEnd && (
          <div className="pricing__alert">
            <Alert title={t("Card saved")}>
              {t("Nothing was due, so nothing was charged. Your next invoice uses this card.")}
            </Alert>
          </div>
        )}
        {checkoutFailed && (
          <div className="pricing__alert">
            <Alert variant="destructive" title={t("Checkout failed")}>
              {t("We couldn't start your checkout. Please try again.")}
            </Alert>
          </div>
        )}
        <BillingPeriodToggle value={period} onChange={setPeriod} />
        <div className="pricing__plans">
          {PLANS.map((plan) => (
            <PlanCard
              key={plan.tier}
              plan={plan}
              period={period}
              action={planAction(plan.tier, period, ownerPlan)}
              onChoose={() => choose(plan.tier)}
            />
          ))}
        </div>
        <section className="pricing__questions" aria-labelledby="pricing-questions">
          <h2 id="pricing-questions">{t("Questions?")}</h2>
          <ul>
            <li>
              {t("All plans include unlimited messages, file sharing and email notifications.")}
            </li>
            <li>{t("Upgrade or downgrade at any time.")}</li>
            <li>{t("No setup fees. Cancel anytime.")}</li>
            <li>{t("24-hour grace period for payment issues.")}</li>
          </ul>
        </section>
      </main>
      {status && (
        <>
          <PlanChangeDialog
            choice={planChoice}
            status={status}
            onClose={() => setPlanChoice(null)}
          />
          <CancelSubscriptionDialog
            open={cancelOpen}
            onOpenChange={setCancelOpen}
            status={status}
          />
        </>
      )}
    </div>
  );
}
