import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ChangeSeatsAnswer, Seats } from "../../../shared/schemas/seats";
import { apiGet, apiPut } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { formatNumber } from "../i18n/formats";
import { i18n } from "../i18n/i18n";
import { pricePerPeriod } from "./price-text";

export type { Seats };

/**
 * The workspace's seats, for any of its staff. Billing off answers 404: there is nothing to
 * buy, and the Team tab simply shows no count (the invite's own answer still says when full).
 */
export function useSeats(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.seats,
    queryFn: () => apiGet<Seats>("/api/subscription/seats"),
    enabled: options.enabled ?? true,
    retry: false,
  });
}

/** Seats held by people and by pending invites. */
export const seatsTaken = (seats: Seats) => seats.used + seats.pending;

export const seatsFull = (seats: Seats) => seatsTaken(seats) >= seats.total;

/** "3 of 4 seats used". */
export const seatsUsedText = (seats: Seats) =>
  i18n.t("{{taken}} of {{count}} seats used", {
    ns: "billing",
    taken: formatNumber(seatsTaken(seats)),
    count: seats.total,
  });

/** "$8/month" or "$80/year", at the interval the subscription is billed. */
export const seatPriceText = (seats: Seats) =>
  seats.billingPeriod === "annual"
    ? pricePerPeriod(seats.pricePerSeat.year * 100, "annual")
    : pricePerPeriod(seats.pricePerSeat.month * 100, "monthly");

/** The owner sets the number of extra seats (PUT /api/subscription/seats). */
export function useChangeSeats() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (extra: number) => apiPut<ChangeSeatsAnswer>("/api/subscription/seats", { extra }),
    onSuccess: (answer) => {
      queryClient.setQueryData(queryKeys.seats, answer.seats);
      void queryClient.invalidateQueries({ queryKey: queryKeys.teamAudit });
    },
  });
}
