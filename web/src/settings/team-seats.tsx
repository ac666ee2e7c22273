import { useEffect, useId, useRef, useState } from "react";
import { serverMessage } from "../api/client";
import {
  type Seats,
  seatPriceText,
  seatsTaken,
  seatsUsedText,
  useChangeSeats,
} from "../billing/seats-query";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * "3 of 4 seats used" under the team (issue 26), with a meter; the owner adds a seat or gives
 * back one nobody holds (not refunded: asked first).
 */
export function TeamSeats({ seats, isOwner }: { seats: Seats; isOwner: boolean }) {
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
          title: extra > seats.extra ? "Seat added" : "Seat removed",
          description: answer.message,
          variant: "success",
        });
      },
      onError: (error) =>
        toast({
          title: "Could not change your seats",
          description: serverMessage(error, "Please try again"),
          variant: "destructive",
        }),
    });

  const detail = [
    `${seats.included} included with your plan`,
    seats.extra > 0 && `${plural(seats.extra, "extra seat", "extra seats")} at ${price} each`,
    seats.pending > 0 && plural(seats.pending, "invite pending", "invites pending"),
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
          aria-label="Seats used"
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
              Remove a seat
            </Button>
          )}
          <Button
            variant="secondary"
            size="sm"
            loading={change.isPending && !confirming}
            onClick={() => setExtra(seats.extra + 1)}
          >
            Add a seat ({price})
          </Button>
          {seats.extra > 0 && freeExtra === 0 && (
            <p className="team-seats__hint" id={freeId}>
              Every seat is in use: only a free seat can be removed.
            </p>
          )}
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Remove a seat?"
        confirmLabel="Remove seat"
        busyLabel="Removing..."
        busy={change.isPending}
        onConfirm={() => setExtra(seats.extra - 1)}
      >
        You go down to {plural(seats.total - 1, "seat", "seats")}. What you paid for this period is
        not refunded; your next bill is {price.replace("/", " a ")} lower.
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
        toast({ title: "Seat added", description: answer.message, variant: "success" });
        onAdded();
      },
      onError: (error) =>
        toast({
          title: "Could not add a seat",
          description: serverMessage(error, "Please try again"),
          variant: "destructive",
        }),
    });
  return (
    <div ref={boxRef} className="seat-prompt" role="status" aria-labelledby={titleId} tabIndex={-1}>
      <p className="seat-prompt__title" id={titleId}>
        All {plural(seats.total, "seat is", "seats are")} taken
      </p>
      {isOwner && seats.canBuy ? (
        <>
          <p className="seat-prompt__text">
            Add a seat to invite someone else. It is billed with your plan, prorated for the rest of
            this period.
          </p>
          <Button size="sm" loading={change.isPending} onClick={buy}>
            {change.isPending ? "Adding seat..." : `Add a seat for ${price}`}
          </Button>
        </>
      ) : (
        <p className="seat-prompt__text">
          {isOwner
            ? "Remove someone or withdraw a pending invite to invite someone else."
            : "Ask the workspace's owner to add a seat, or withdraw a pending invite."}
        </p>
      )}
    </div>
  );
}
