import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import type { CheckoutResponse } from "../../../shared/schemas/billing";
import { type BillingPeriod, type Tier, TIERS } from "../../../shared/tiers";
import { apiPost } from "../api/client";
import { CenteredSpinner } from "../ui/spinner";

const CHECKOUT_FAILED = "/pricing?error=checkout-failed";

function paidTier(value: string | null): Tier {
  return TIERS.includes(value as Tier) && value !== "free" ? (value as Tier) : "pro";
}

function billingPeriod(value: string | null): BillingPeriod {
  return value === "annual" ? "annual" : "monthly";
}

/** Asks the server for a checkout session once, then hands the browser to it. */
export function SubscribePage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const { t } = useTranslation("billing");
  const started = useRef(false);
  const tier = paidTier(searchParams.get("tier"));
  const period = billingPeriod(searchParams.get("period"));

  useEffect(() => {
    // Once per visit, even when React runs effects twice in development.
    if (started.current) return;
    started.current = true;
    apiPost<CheckoutResponse>("/api/subscription/create-checkout", { tier, period })
      .then((answer) => {
        if (answer?.url) window.location.assign(answer.url);
        else navigate(CHECKOUT_FAILED, { replace: true });
      })
      .catch(() => navigate(CHECKOUT_FAILED, { replace: true }));
  }, [tier, period, navigate]);

  return <CenteredSpinner message={t("Setting up your subscription...")} />;
}
