import { TIER_CONFIG } from "../../../shared/tiers";
import { Button } from "../ui/button";
import { AlertIcon } from "../ui/icons";
import { usePaymentMethodUpdate } from "./payment-method-mutation";
import type { SubscriptionStatus } from "./subscription-status-query";

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });

/** The first thing on /pricing while a failed payment's grace period runs. */
export function PaymentFailedNotice({ status }: { status: SubscriptionStatus }) {
  const update = usePaymentMethodUpdate();
  if (!status.paymentFailureGraceEnd) return null;
  const plan = TIER_CONFIG[status.accountTier].name;
  return (
    <section className="payment-notice" aria-labelledby="payment-notice-title">
      <span className="payment-notice__icon">
        <AlertIcon />
      </span>
      <div className="payment-notice__body">
        <h2 className="payment-notice__title" id="payment-notice-title">
          Your last payment failed
        </h2>
        <p className="payment-notice__text">
          Update your payment method by {dateTime(status.paymentFailureGraceEnd)} to keep your{" "}
          {plan} plan. After that, your account moves to the Free plan.
        </p>
      </div>
      <Button
        className="payment-notice__action"
        variant="danger"
        loading={update.isPending || update.isSuccess}
        onClick={() => update.mutate()}
      >
        Update payment method
      </Button>
    </section>
  );
}
