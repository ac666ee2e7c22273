import { useQuery } from "@tanstack/react-query";
import type { BillingMode } from "../../../shared/billing-mode";
import type { BillingModeAnswer } from "../../../shared/schemas/billing";
import { apiGet } from "../api/client";
import { queryKeys } from "../api/query-keys";

export type { BillingMode };

/** How the server bills (GET /api/billing-mode, public); null while unknown or on failure. */
async function fetchBillingMode(): Promise<BillingMode | null> {
  try {
    return (await apiGet<BillingModeAnswer>("/api/billing-mode")).mode;
  } catch {
    return null;
  }
}

/** The mode does not change while the server runs: fetched once per page load. */
export function useBillingMode(): BillingMode | null {
  const { data } = useQuery({
    queryKey: queryKeys.billingMode,
    queryFn: fetchBillingMode,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return data ?? null;
}
