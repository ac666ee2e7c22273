import { useTranslation } from "react-i18next";
import { TIER_CONFIG } from "../../../shared/tiers";
import { dateTimeFormat } from "../i18n/formats";
import { Button } from "../ui/button";
import { AlertIcon } from "../ui/notice-icons";
import { usePaymentMethodUpdate } from "./payment-method-mutation";
import type { SubscriptionStatus } from "./subscription-status-query";

/** The first thing on /pricing while a failed payment's grace period runs. */
export function PaymentFailedNotice({ status }: { status: SubscriptionStatus }) {
  const update = usePaymentMethodUpdate();
  const { t } = useTranslation("billing");
  if (!status.paymentFailureGraceEnd) return null;
  const plan = TIER_CONFIG[status.accountTier].name;
  return (
    <section className="payment-notice" aria-labelledby="payment-notice-title">
      <span className="payment-notice__icon">
        <AlertIcon />
      </span>
      <div className="payment-notice__body">
        <h2 className="payment-notice__title" id="payment-notice-title">
          {t("Your last payment failed")}
        </h2>
        <p className="payment-notice__text">
          {t(
            "Update your payment method by {{date}} to keep your {{plan}} plan. After that, your account moves to the Free plan.",
            {
              date: dateTimeFormat({ dateStyle: "medium", timeStyle: "short" }).format(
                new Date(status.paymentFailureGraceEnd),
              ),
              plan,
            },
          )}
        </p>
      </div>
      <Button
        className="payment-notice__action"
        variant="danger"
        loading={update.isPending || update.isSuccess}
        onClick={() => update.mutate()}
      >
        {t("Update payment method")}
      </Button>
    </section>
  );
}
