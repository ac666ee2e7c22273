import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSubscriptionStatus } from "../billing/subscription-status-query";
import { dateTimeFormat } from "../i18n/formats";
import { buttonClassName } from "../ui/button";
import { AlertIcon } from "../ui/notice-icons";

function formatGraceEnd(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return dateTimeFormat({ dateStyle: "medium", timeStyle: "short" }).format(date);
}

/** Shown while a failed payment's grace period runs. */
export function PaymentFailedBanner() {
  const { data: status } = useSubscriptionStatus();
  const { t } = useTranslation("dashboard");
  const graceEnd = status?.paymentFailureGraceEnd;
  if (!graceEnd) return null;
  return (
    <div className="payment-banner" role="alert" data-toast-clear>
      <AlertIcon />
      <p className="payment-banner__text">
        {t("Payment failed! Your account will be downgraded on {{date}}", {
          date: formatGraceEnd(graceEnd),
        })}
      </p>
      <Link
        to="/pricing"
        className={`${buttonClassName("secondary", "sm")} payment-banner__action`}
      >
        {t("Update Payment")}
      </Link>
    </div>
  );
}
