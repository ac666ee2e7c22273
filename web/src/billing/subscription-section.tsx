import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { BillingActionAnswer, SubscriptionStatus } from "../../../shared/schemas/billing";
import { apiPost, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { Button } from "../ui/button";
import { useToast } from "../ui/toast";
import { LIVE_STATUSES } from "../../../shared/subscription-statuses";
import { subscriptionSummary } from "../../../shared/subscription-summary";
import { CancelSubscriptionDialog } from "./cancel-subscription-dialog";
import { usePaymentMethodUpdate } from "./payment-method-mutation";
import { useSubscriptionStatus } from "./subscription-status-query";
import { subscriptionSummaryText } from "./subscription-summary-text";
import "./subscription-summary.css";

/** The paid subscription in the Account tab: its dates, and the way out (or back). */
export function SubscriptionSection() {
  const { data: status } = useSubscriptionStatus();
  const updatePayment = usePaymentMethodUpdate();
  const [cancelOpen, setCancelOpen] = useState(false);
  const queryClient = useQueryClient();
  const toast = useToast();
  const { t } = useTranslation("billing");
  const resume = useMutation({
    mutationFn: () => apiPost<BillingActionAnswer>("/api/subscription/keep-account"),
    onSuccess: (answer) => {
      toast({ title: t("Great Choice!"), description: answer.message, variant: "success" });
      void queryClient.invalidateQueries({ queryKey: queryKeys.subscriptionStatus });
    },
    onError: (error) =>
      toast({
        title: t("Error"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });
  if (!status) return null;
  const paid = status.accountTier !== "free" && LIVE_STATUSES.has(status.subscriptionStatus);
  if (!paid && !status.testMode) return null;

  return (
    <section className="settings-section" aria-labelledby="subscription-heading">
      <div className="settings-section__header">
        <h3 id="subscription-heading" className="settings-section__title">
          {t("Subscription")}
        </h3>
        {paid && !status.cancelAtPeriodEnd && (
          <Button variant="danger" size="sm" onClick={() => setCancelOpen(true)}>
            {t("Cancel Subscription")}
          </Button>
        )}
        {paid && status.cancelAtPeriodEnd && (
          <Button
            variant="secondary"
            size="sm"
            loading={resume.isPending}
            onClick={() => resume.mutate()}
          >
            {t("Keep Subscription")}
          </Button>
        )}
      </div>
      {paid ? (
        <SubscriptionFacts
          status={status}
          onUpdatePayment={() => updatePayment.mutate()}
          updatingPayment={updatePayment.isPending || updatePayment.isSuccess}
        />
      ) : (
        <p className="settings-section__hint">{t("No paid subscription.")}</p>
      )}
      {status.testMode && (
        <p className="settings-section__hint">
          {t("Test mode: payments are simulated.")}{" "}
          {paid && <a href="/billing/test-mode">{t("Simulate a renewal payment")}</a>}
        </p>
      )}
      <CancelSubscriptionDialog open={cancelOpen} onOpenChange={setCancelOpen} status={status} />
    </section>
  );
}

/** One status line (what happens next), then the plan and its price. */
function SubscriptionFacts({
  status,
  onUpdatePayment,
  updatingPayment,
}: {
  status: SubscriptionStatus;
  onUpdatePayment: () => void;
  updatingPayment: boolean;
}) {
  const { t } = useTranslation("billing");
  const summary = subscriptionSummary(status, { now: new Date() });
  const text = subscriptionSummaryText(summary);
  return (
    <div className={`subscription-summary subscription-summary--${summary.state}`}>
      <p className="subscription-summary__headline">{text.headline}</p>
      <p className="subscription-summary__plan">{text.plan}</p>
      {status.retentionDiscountUsed && (
        <p className="subscription-summary__plan">
          {t("Retention discount applied to your next bill")}
        </p>
      )}
      {summary.state === "payment-failed" && (
        <Button variant="danger" size="sm" loading={updatingPayment} onClick={onUpdatePayment}>
          {t("Update payment method")}
        </Button>
      )}
    </div>
  );
}
