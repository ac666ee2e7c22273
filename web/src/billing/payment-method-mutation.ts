import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { PaymentMethodResponse } from "../../../shared/schemas/billing";
import { apiPost, serverMessage } from "../api/client";
import { useToast } from "../ui/toast";

/**
 * Opens the page where the card is updated and the failed invoice paid again: Stripe's
 * Customer Portal, or test mode's own page. The browser leaves the app for it.
 */
export function usePaymentMethodUpdate() {
  const toast = useToast();
  const { t } = useTranslation("billing");
  return useMutation({
    mutationFn: () => apiPost<PaymentMethodResponse>("/api/subscription/payment-method", {}),
    onSuccess: (answer) => window.location.assign(answer.url),
    onError: (error) =>
      toast({
        title: t("Couldn't open the payment page"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });
}
