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

export function useSubscriptionStatus() {
  return useQuery({ queryKey: queryKeys.subscriptionStatus, queryFn: fetchSubscriptionStatus });
}
