import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import {
  type BillingActionAnswer,
  CANCELLATION_REASONS,
  type CancellationReason,
  type SubscriptionStatus,
} from "../../../shared/schemas/billing";
import { retentionDiscountDollars } from "../../../shared/tiers";
import { apiPost, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { Button } from "../ui/button";
import { Dialog, DialogFooter } from "../ui/dialog";
import { useToast } from "../ui/toast";
import "./cancel-flow.css";

const REASON_LABELS: Record<CancellationReason, string> = {
  too_expensive: "It's too expensive",
  not_using: "I'm not using it enough",
  missing_features: "It's missing features I need",
  found_alternative: "I found an alternative",
  technical_issues: "Technical issues",
  no_longer_need: "I no longer need it",
  billing_issues: "Billing issues",
  other: "Other",
};

type RetentionChoice = "discount" | "pause" | "cancel";
const PAUSE_MONTHS = [1, 2, 3] as const;

const formatDate = (value: string | null) =>
  value
    ? new Date(value).toLocaleDateString(undefined, { dateStyle: "long" })
    : "the end of this period";

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
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Cancel Subscription"
      description="We're sorry to see you go."
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

  const refresh = () => {
    for (const queryKey of [queryKeys.subscriptionStatus, queryKeys.accountTier, queryKeys.user]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  };
  const failed =
    (title: string, fallback = "Please try again") =>
    (error: unknown) =>
      toast({ title, description: serverMessage(error, fallback), variant: "destructive" });

  const start = useMutation({
    mutationFn: () =>
      apiPost<BillingActionAnswer>("/api/subscription/start-cancellation", {
        reason,
        ...(reason === "other" ? { customReason: customReason.trim() } : {}),
      }),
    onSuccess: () => setStep("retention"),
    onError: failed("Failed to start cancellation"),
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
          ? "Discount Applied!"
          : picked === "pause"
            ? "Account Paused"
            : "Subscription Canceled";
      toast({ title, description: answer.message, variant: "success" });
      refresh();
      onDone();
    },
    onError: (error, picked) =>
      failed(
        picked === "discount"
          ? "Failed to apply discount"
          : picked === "pause"
            ? "Failed to pause account"
            : "Failed to cancel subscription",
      )(error),
  });

  const keep = useMutation({
    mutationFn: () => apiPost<BillingActionAnswer>("/api/subscription/keep-account"),
    onSuccess: (answer) => {
      toast({ title: "Great Choice!", description: answer.message, variant: "success" });
      refresh();
      onDone();
    },
    onError: failed("Error"),
  });

  const busy = start.isPending || finish.isPending || keep.isPending;

  const submitReason = (event: FormEvent) => {
    event.preventDefault();
    if (!reason) {
      toast({
        title: "Please select a reason",
        description: "We need to know why you're leaving to help us improve.",
        variant: "destructive",
      });
      return;
    }
    if (reason === "other" && !customReason.trim()) {
      toast({
        title: "Please provide details",
        description: "Help us understand your specific reason.",
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
        title: "Please select an option",
        description: "Choose how you'd like to proceed.",
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
      Keep Account
    </Button>
  );

  if (step === "reason") {
    return (
      <form className="cancel-flow" onSubmit={submitReason} noValidate>
        <fieldset className="cancel-flow__options">
          <legend className="cancel-flow__legend">Why are you canceling?</legend>
          {CANCELLATION_REASONS.map((value) => (
            <label key={value} className="cancel-flow__option">
              <input
                type="radio"
                name="reason"
                value={value}
                checked={reason === value}
                onChange={() => setReason(value)}
              />
              <span>{REASON_LABELS[value]}</span>
            </label>
          ))}
        </fieldset>
        {reason === "other" && (
          <label className="cancel-flow__details">
            <span className="field__label">Please tell us more</span>
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
            Continue
          </Button>
        </DialogFooter>
      </form>
    );
  }

  const dollars = retentionDiscountDollars(status.accountTier);
  const paused = status.pausedUntil !== null && new Date(status.pausedUntil) > new Date();
  return (
    <form className="cancel-flow" onSubmit={submitChoice} noValidate>
      <p className="cancel-flow__intro">Before you go, would one of these help?</p>
      <fieldset className="cancel-flow__options">
        <legend className="cancel-flow__legend">How would you like to proceed?</legend>
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
            <strong>Take ${dollars} off your next bill</strong>
            <small>
              {status.retentionDiscountUsed
                ? "You already used this offer."
                : "Stay on your plan and pay less next time."}
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
            <strong>Pause my account</strong>
            <small>
              {paused
                ? `Already paused until ${formatDate(status.pausedUntil)}.`
                : "No charges while paused; your clients and messages stay."}
            </small>
          </span>
        </label>
        {choice === "pause" && (
          <fieldset className="cancel-flow__months">
            <legend className="cancel-flow__legend">Pause for</legend>
            {PAUSE_MONTHS.map((months) => (
              <label key={months} className="cancel-flow__option">
                <input
                  type="radio"
                  name="pauseMonths"
                  value={months}
                  checked={pauseMonths === months}
                  onChange={() => setPauseMonths(months)}
                />
                <span>{months === 1 ? "1 month" : `${months} months`}</span>
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
            <strong>Cancel my subscription</strong>
            <small>
              You keep your plan until {formatDate(status.subscriptionEndDate)}, then move to Free.
            </small>
          </span>
        </label>
      </fieldset>
      <DialogFooter>
        {keepButton}
        <Button type="submit" variant="danger" loading={finish.isPending} disabled={busy}>
          Continue
        </Button>
      </DialogFooter>
    </form>
  );
}
