import { useQuery } from "@tanstack/react-query";
import type { SubscriptionStatus } from "../../../shared/schemas/billing";
import { apiGet } from "../api/client";
import { queryKeys } from "../api/query-keys";

export type { SubscriptionStatus };

/** Any failure reads as "nothing to report" (the banner and plan box simply stay hidden). */
async function fetchSubscriptionStatus(): Promise<SubscriptionStatus | null> {
  try {
    return await apiGet<SubscriptionStatus>("/api/subscription/status");
  } catch {
    return null;
  }
}

const FAILING_POLL_MS = 5_000;

/**
 * `pollWhileFailing`: on /pricing after a failed payment the card is updated elsewhere (the
 * Customer Portal) and the paid invoice arrives by webhook, so the page looks again until the
 * grace period has ended.
 */
export function useSubscriptionStatus(
  options: { enabled?: boolean; pollWhileFailing?: boolean } = {},
) {
  return useQuery({
    queryKey: queryKeys.subscriptionStatus,
    queryFn: fetchSubscriptionStatus,
    enabled: options.enabled ?? true,
    refetchInterval: (query) =>
      options.pollWhileFailing && query.state.data?.paymentFailureGraceEnd
        ? FAILING_POLL_MS
        : false,
  });
}
