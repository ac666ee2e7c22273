import { useState } from "react";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { type BillingPeriod, PLANS, type Tier } from "../../../shared/tiers";
import { useCurrentUser } from "../api/current-user";
import { Alert } from "../ui/alert";
import { buttonClassName } from "../ui/button";
import { ArrowLeftIcon } from "../ui/icons";
import { Logo } from "../ui/logo";
import { useToast } from "../ui/toast";
import { BillingPeriodToggle } from "./billing-period-toggle";
import { useBillingMode } from "./billing-mode-query";
import { PlanCard } from "./plan-card";
import { TestModeBar } from "./test-mode-bar";
import "./billing.css";

export function PricingPage() {
  const [period, setPeriod] = useState<BillingPeriod>("monthly");
  const [searchParams] = useSearchParams();
  const { data: user } = useCurrentUser();
  const navigate = useNavigate();
  const toast = useToast();
  const checkoutFailed = searchParams.get("error") === "checkout-failed";
  const currentTier = user?.role === "owner" ? user.accountTier : null;
  // Billing off (self-hosted): nothing to buy, every owner already has every feature.
  const offline = useBillingMode() === "off";

  const choose = (tier: Tier) => {
    if (!user) {
      toast({
        title: "Please log in",
        description: "You need to be logged in to upgrade your account.",
      });
      navigate("/auth");
      return;
    }
    navigate(`/subscribe?tier=${tier}&period=${period}`);
  };

  if (offline) return <Navigate to="/" replace />;

  return (
    <div className="pricing">
      <TestModeBar />
      <header className="pricing__bar">
        <Link to="/" className={buttonClassName("ghost")}>
          <ArrowLeftIcon />
          Back to Dashboard
        </Link>
        <Logo />
      </header>
      <main className="pricing__main">
        <div className="pricing__intro">
          <h1 className="pricing__title">Choose your plan</h1>
          <p className="pricing__subtitle">
            Start free with one client. Upgrade when your client list grows.
          </p>
        </div>
        {checkoutFailed && (
          <div className="pricing__alert">
            <Alert variant="destructive" title="Checkout failed">
              We couldn't start your checkout. Please try again.
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
              isCurrent={plan.tier === currentTier}
              onChoose={() => choose(plan.tier)}
            />
          ))}
        </div>
        <section className="pricing__questions" aria-labelledby="pricing-questions">
          <h2 id="pricing-questions">Questions?</h2>
          <ul>
            <li>All plans include unlimited messages, file sharing and email notifications.</li>
            <li>Upgrade or downgrade at any time.</li>
            <li>No setup fees. Cancel anytime.</li>
            <li>24-hour grace period for payment issues.</li>
          </ul>
        </section>
      </main>
    </div>
  );
}
