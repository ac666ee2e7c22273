import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { serverMessage } from "../api/client";
import {
  type Seats,
  seatPriceText,
  seatsTaken,
  seatsUsedText,
  useChangeSeats,
} from "../billing/seats-query";
import { formatPrice } from "../i18n/formats";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";

/**
 * "3 of 4 seats used" under the team (issue 26), with a meter; the owner adds a seat or gives
 * back one nobody holds (not refunded: asked first).
 */
export function TeamSeats({ seats, isOwner }: { seats: Seats; isOwner: boolean }) {
  const { t } = useTranslation("settings");
  const [confirming, setConfirming] = useState(false);
  const change = useChangeSeats();
  const toast = useToast();
  const freeId = useId();
  const taken = seatsTaken(seats);
  const freeExtra = Math.max(0, Math.min(seats.extra, seats.total - taken));
  const price = seatPriceText(seats);

  const setExtra = (extra: number) =>
    change.mutate(extra, {
      onSuccess: (answer) => {
        setConfirming(false);
        toast({
          title: extra > seats.extra ? t("Seat added") : t("Seat removed"),
          description: answer.message,
          variant: "success",
        });
      },
      onError: (error) =>
        toast({
          title: t("Could not change your seats"),
          description: serverMessage(error, t("Please try again")),
          variant: "destructive",
        }),
    });

  const detail = [
    t("{{count}} included with your plan", { count: seats.included }),
    seats.extra > 0 && t("{{count}} extra seats at {{price}} each", { count: seats.extra, price }),
    seats.pending > 0 && t("{{count}} invites pending", { count: seats.pending }),
  ]
    .filter(Boolean)
    .join(" · ");

  return (
    <div className="team-seats">
      <div className="team-seats__count">
        <p className="team-seats__used">{seatsUsedText(seats)}</p>
        <div
          className="team-seats__meter"
          role="progressbar"
          aria-label={t("Seats used")}
          aria-valuemin={0}
          aria-valuemax={seats.total}
          aria-valuenow={Math.min(taken, seats.total)}
        >
          <span style={{ width: `${Math.min(1, taken / seats.total) * 100}%` }} />
        </div>
        <p className="team-seats__detail">{detail}</p>
      </div>
      {isOwner && seats.canBuy && (
        <div className="team-seats__actions">
          {seats.extra > 0 && (
            <Button
              variant="ghost"
              size="sm"
              disabled={freeExtra === 0 || change.isPending}
              aria-describedby={freeExtra === 0 ? freeId : undefined}
              onClick={() => setConfirming(true)}
            >
              {t("Remove a seat")}
            </Button>
          )}
          <Button
            variant="secondary"
            size="sm"
            loading={change.isPending && !confirming}
            onClick={() => setExtra(seats.extra + 1)}
          >
            {t("Add a seat ({{price}})", { price })}
          </Button>
          {seats.extra > 0 && freeExtra === 0 && (
            <p className="team-seats__hint" id={freeId}>
              {t("Every seat is in use: only a free seat can be removed.")}
            </p>
          )}
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t("Remove a seat?")}
        confirmLabel={t("Remove seat")}
        busyLabel={t("Removing...")}
        busy={change.isPending}
        onConfirm={() => setExtra(seats.extra - 1)}
      >
        {seats.billingPeriod === "annual"
          ? t(
              "You go down to {{count}} seats. What you paid for this period is not refunded; your next bill is {{price}} a year lower.",
              { count: seats.total - 1, price: formatPrice(seats.pricePerSeat.year * 100) },
            )
          : t(
              "You go down to {{count}} seats. What you paid for this period is not refunded; your next bill is {{price}} a month lower.",
              { count: seats.total - 1, price: formatPrice(seats.pricePerSeat.month * 100) },
            )}
      </ConfirmDialog>
    </div>
  );
}

/**
 * In place of the invite's Send button when every seat is taken: the owner buys one here (the
 * invite can then be sent); an admin is told to ask the owner.
 */
export function SeatPrompt({
  seats,
  isOwner,
  onAdded,
  takeFocus,
}: {
  seats: Seats;
  isOwner: boolean;
  onAdded: () => void;
  /** It replaces the focused Send button (the invite just sent took the last seat). */
  takeFocus: boolean;
}) {
  const { t } = useTranslation("settings");
  const boxRef = useRef<HTMLDivElement>(null);
  // Runs once, when the prompt appears: focus must not stay on a button that is gone.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on mount
  useEffect(() => {
    if (takeFocus) boxRef.current?.focus();
  }, []);
  const change = useChangeSeats();
  const toast = useToast();
  const price = seatPriceText(seats);
  const titleId = useId();
  const buy = () =>
    change.mutate(seats.extra + 1, {
      onSuccess: (answer) => {
        toast({ title: t("Seat added"), description: answer.message, variant: "success" });
        onAdded();
      },
      onError: (error) =>
        toast({
          title: t("Could not add a seat"),
          description: serverMessage(error, t("Please try again")),
          variant: "destructive",
        }),
    });
  return (
    <div ref={boxRef} className="seat-prompt" role="status" aria-labelledby={titleId} tabIndex={-1}>
      <p className="seat-prompt__title" id={titleId}>
        {t("All {{count}} seats are taken", { count: seats.total })}
      </p>
      {isOwner && seats.canBuy ? (
        <>
          <p className="seat-prompt__text">
            {t(
              "Add a seat to invite someone else. It is billed with your plan, prorated for the rest of this period.",
            )}
          </p>
          <Button size="sm" loading={change.isPending} onClick={buy}>
            {change.isPending ? t("Adding seat...") : t("Add a seat for {{price}}", { price })}
          </Button>
        </>
      ) : (
        <p className="seat-prompt__text">
          {isOwner
            ? t("Remove someone or withdraw a pending invite to invite someone else.")
            : t("Ask the workspace's owner to add a seat, or withdraw a pending invite.")}
        </p>
      )}
    </div>
  );
}
