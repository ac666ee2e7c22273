import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { BillingActionAnswer } from "../../../shared/schemas/billing";
import { apiPost, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { Button } from "../ui/button";
import { useToast } from "../ui/toast";
import { CancelSubscriptionDialog } from "./cancel-subscription-dialog";
import { useSubscriptionStatus } from "./subscription-status-query";

const formatDate = (value: string) => new Date(value).toLocaleDateString(undefined, { dateStyle: "long" });
const LIVE = new Set(["active", "trialing", "past_due"]);

/** The paid subscription in the Account tab: its dates, and the way out (or back). */
export function SubscriptionSection() {
  const { data: status } = useSubscriptionStatus();
  const [cancelOpen, setCancelOpen] = useState(false);
  const queryClient = useQueryClient();
  const toast = useToast();
  const resume = useMutation({
    mutationFn: () => apiPost<BillingActionAnswer>("/api/subscription/keep-account"),
    onSuccess: (answer) => {
      toast({ title: "Great Choice!", description: answer.message, variant: "success" });
      void queryClient.invalidateQueries({ queryKey: queryKeys.subscriptionStatus });
    },
    onError: (error) =>
      toast({ title: "Error", description: serverMessage(error, "Please try again"), variant: "destructive" }),
  });
  if (!status) return null;
  const paid = status.accountTier !== "free" && LIVE.has(status.subscriptionStatus);
  if (!paid && !status.testMode) return null;

  return (
    <section className="settings-section" aria-labelledby="subscription-heading">
      <div className="settings-section__header">
        <h3 id="subscription-heading" className="settings-section__title">
          Subscription
        </h3>
        {paid && !status.cancelAtPeriodEnd && (
          <Button variant="danger" size="sm" onClick={() => setCancelOpen(true)}>
            Cancel Subscription
          </Button>
        )}
        {paid && status.cancelAtPeriodEnd && (
          <Button variant="secondary" size="sm" loading={resume.isPending} onClick={() => resume.mutate()}>
            Keep Subscription
          </Button>
        )}
      </div>
      {paid ? (
        <ul className="subscription-facts">
          <li>Billed {status.billingPeriod === "annual" ? "annually" : "monthly"}</li>
          {status.subscriptionEndDate && (
            <li>
              {status.cancelAtPeriodEnd ? "Ends on " : "Renews on "}
              {formatDate(status.subscriptionEndDate)}
            </li>
          )}
          {status.pausedUntil && <li>Paused until {formatDate(status.pausedUntil)}</li>}
          {status.retentionDiscountUsed && <li>Retention discount applied to your next bill</li>}
        </ul>
      ) : (
        <p className="settings-section__hint">No paid subscription.</p>
      )}
      {status.testMode && (
        <p className="settings-section__hint">
          Test mode: payments are simulated.{" "}
          {paid && <a href="/billing/test-mode">Simulate a renewal payment</a>}
        </p>
      )}
      <CancelSubscriptionDialog open={cancelOpen} onOpenChange={setCancelOpen} status={status} />
    </section>
  );
}
