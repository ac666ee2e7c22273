import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type BillingActionAnswer,
  CANCELLATION_REASONS,
  type CancellationReason,
  type SubscriptionStatus,
} from "../../../shared/schemas/billing";
import { retentionDiscountDollars } from "../../../shared/tiers";
import { apiPost, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { dateTimeFormat, formatPrice } from "../i18n/formats";
import { Button } from "../ui/button";
import { Dialog, DialogFooter } from "../ui/dialog";
import { useToast } from "../ui/toast";
import "./cancel-flow.css";

const reasonLabels = (t: TFunction<"billing">): Record<CancellationReason, string> => ({
  too_expensive: t("It's too expensive"),
  not_using: t("I'm not using it enough"),
  missing_features: t("It's missing features I need"),
  found_alternative: t("I found an alternative"),
  technical_issues: t("Technical issues"),
  no_longer_need: t("I no longer need it"),
  billing_issues: t("Billing issues"),
  other: t("Other"),
});

type RetentionChoice = "discount" | "pause" | "cancel";
const PAUSE_MONTHS = [1, 2, 3] as const;

const formatDate = (iso: string) => dateTimeFormat({ dateStyle: "long" }).format(new Date(iso));

interface CancelSubscriptionDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  status: SubscriptionStatus;
}

/** Spec section 4: reason, then a retention offer, then discount, pause or cancel. */
export function CancelSubscriptionDialog({
  open,
  onOpenChange,
  status,
}: CancelSubscriptionDialogProps) {
  const { t } = useTranslation("billing");
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("Cancel Subscription")}
      description={t("We're sorry to see you go.")}
    >
      {/* Mounted only while open: closing resets the flow. */}
      {open && <CancelFlow status={status} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function CancelFlow({ status, onDone }: { status: SubscriptionStatus; onDone: () => void }) {
  const [step, setStep] = useState<"reason" | "retention">("reason");
  const [reason, setReason] = useState<CancellationReason | null>(null);
  const [customReason, setCustomReason] = useState("");
  const [choice, setChoice] = useState<RetentionChoice | null>(null);
  const [pauseMonths, setPauseMonths] = useState<number>(1);
  const queryClient = useQueryClient();
  const toast = useToast();
  const { t } = useTranslation("billing");

  const refresh = () => {
    for (const queryKey of [queryKeys.subscriptionStatus, queryKeys.accountTier, queryKeys.user]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  };
  const failed =
    (title: string, fallback = t("Please try again")) =>
    (error: unknown) =>
      toast({ title, description: serverMessage(error, fallback), variant: "destructive" });

  const start = useMutation({
    mutationFn: () =>
      apiPost<BillingActionAnswer>("/api/subscription/start-cancellation", {
        reason,
        ...(reason === "other" ? { customReason: customReason.trim() } : {}),
      }),
    onSuccess: () => setStep("retention"),
    onError: failed(t("Failed to start cancellation")),
  });

  const finish = useMutation({
    mutationFn: (picked: RetentionChoice) =>
      picked === "discount"
        ? apiPost<BillingActionAnswer>("/api/subscription/apply-discount")
        : picked === "pause"
          ? apiPost<BillingActionAnswer>("/api/subscription/pause-account", { pauseMonths })
          : apiPost<BillingActionAnswer>("/api/subscription/complete-cancellation"),
    onSuccess: (answer, picked) => {
      const title =
        picked === "discount"
          ? t("Discount Applied!")
          : picked === "pause"
            ? t("Account Paused")
            : t("Subscription Canceled");
      toast({ title, description: answer.message, variant: "success" });
      refresh();
      onDone();
    },
    onError: (error, picked) =>
      failed(
        picked === "discount"
          ? t("Failed to apply discount")
          : picked === "pause"
            ? t("Failed to pause account")
            : t("Failed to cancel subscription"),
      )(error),
  });

  const keep = useMutation({
    mutationFn: () => apiPost<BillingActionAnswer>("/api/subscription/keep-account"),
    onSuccess: (answer) => {
      toast({ title: t("Great Choice!"), description: answer.message, variant: "success" });
      refresh();
      onDone();
    },
    onError: failed(t("Error")),
  });

  const busy = start.isPending || finish.isPending || keep.isPending;

  const submitReason = (event: FormEvent) => {
    event.preventDefault();
    if (!reason) {
      toast({
        title: t("Please select a reason"),
        description: t("We need to know why you're leaving to help us improve."),
        variant: "destructive",
      });
      return;
    }
    if (reason === "other" && !customReason.trim()) {
      toast({
        title: t("Please provide details"),
        description: t("Help us understand your specific reason."),
        variant: "destructive",
      });
      return;
    }
    start.mutate();
  };

  const submitChoice = (event: FormEvent) => {
    event.preventDefault();
    if (!choice) {
      toast({
        title: t("Please select an option"),
        description: t("Choose how you'd like to proceed."),
        variant: "destructive",
      });
      return;
    }
    finish.mutate(choice);
  };

  const keepButton = (
    <Button
      variant="secondary"
      onClick={() => keep.mutate()}
      loading={keep.isPending}
      disabled={busy}
    >
      {t("Keep Account")}
    </Button>
  );

  if (step === "reason") {
    const labels = reasonLabels(t);
    return (
      <form className="cancel-flow" onSubmit={submitReason} noValidate>
        <fieldset className="cancel-flow__options">
          <legend className="cancel-flow__legend">{t("Why are you canceling?")}</legend>
          {CANCELLATION_REASONS.map((value) => (
            <label key={value} className="cancel-flow__option">
              <input
                type="radio"
                name="reason"
                value={value}
                checked={reason === value}
                onChange={() => setReason(value)}
              />
              <span>{labels[value]}</span>
            </label>
          ))}
        </fieldset>
        {reason === "other" && (
          <label className="cancel-flow__details">
            <span className="field__label">{t("Please tell us more")}</span>
            <textarea
              className="input cancel-flow__textarea"
              value={customReason}
              maxLength={1000}
              rows={3}
              onChange={(event) => setCustomReason(event.target.value)}
            />
          </label>
        )}
        <DialogFooter>
          {keepButton}
          <Button type="submit" variant="danger" loading={start.isPending} disabled={busy}>
            {t("Continue")}
          </Button>
        </DialogFooter>
      </form>
    );
  }

  const dollars = retentionDiscountDollars(status.accountTier);
  const paused = status.pausedUntil !== null && new Date(status.pausedUntil) > new Date();
  return (
    <form className="cancel-flow" onSubmit={submitChoice} noValidate>
      <p className="cancel-flow__intro">{t("Before you go, would one of these help?")}</p>
      <fieldset className="cancel-flow__options">
        <legend className="cancel-flow__legend">{t("How would you like to proceed?")}</legend>
        <label className="cancel-flow__option cancel-flow__option--card">
          <input
            type="radio"
            name="choice"
            value="discount"
            checked={choice === "discount"}
            disabled={status.retentionDiscountUsed}
            onChange={() => setChoice("discount")}
          />
          <span>
            <strong>
              {t("Take {{amount}} off your next bill", { amount: formatPrice(dollars * 100) })}
            </strong>
            <small>
              {status.retentionDiscountUsed
                ? t("You already used this offer.")
                : t("Stay on your plan and pay less next time.")}
            </small>
          </span>
        </label>
        <label className="cancel-flow__option cancel-flow__option--card">
          <input
            type="radio"
            name="choice"
            value="pause"
            checked={choice === "pause"}
            disabled={paused}
            onChange={() => setChoice("pause")}
          />
          <span>
            <strong>{t("Pause my account")}</strong>
            <small>
              {paused && status.pausedUntil
                ? t("Already paused until {{date}}.", { date: formatDate(status.pausedUntil) })
                : t("No charges while paused; your clients and messages stay.")}
            </small>
          </span>
        </label>
        {choice === "pause" && (
          <fieldset className="cancel-flow__months">
            <legend className="cancel-flow__legend">{t("Pause for")}</legend>
            {PAUSE_MONTHS.map((months) => (
              <label key={months} className="cancel-flow__option">
                <input
                  type="radio"
                  name="pauseMonths"
                  value={months}
                  checked={pauseMonths === months}
                  onChange={() => setPauseMonths(months)}
                />
                <span>{t("{{count}} months", { count: months })}</span>
              </label>
            ))}
          </fieldset>
        )}
        <label className="cancel-flow__option cancel-flow__option--card">
          <input
            type="radio"
            name="choice"
            value="cancel"
            checked={choice === "cancel"}
            onChange={() => setChoice("cancel")}
          />
          <span>
            <strong>{t("Cancel my subscription")}</strong>
            <small>
              {status.subscriptionEndDate
                ? t("You keep your plan until {{date}}, then move to Free.", {
                    date: formatDate(status.subscriptionEndDate),
                  })
                : t("You keep your plan until the end of this period, then move to Free.")}
            </small>
          </span>
        </label>
      </fieldset>
      <DialogFooter>
        {keepButton}
        <Button type="submit" variant="danger" loading={finish.isPending} disabled={busy}>
          {t("Continue")}
        </Button>
      </DialogFooter>
    </form>
  );
}
