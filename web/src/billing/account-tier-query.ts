import { useQuery } from "@tanstack/react-query";
import type { AccountTierInfo } from "../../../shared/schemas/user";
import { apiGet } from "../api/client";
import { queryKeys } from "../api/query-keys";

export type { AccountTierInfo };

/** The owner's plan, client count and limits (GET /api/user/account-tier). */
export function useAccountTier() {
  return useQuery({
    queryKey: queryKeys.accountTier,
    queryFn: () => apiGet<AccountTierInfo>("/api/user/account-tier"),
  });
}

/** "3 / 10 clients", or "3 clients" with no limit. */
export function clientUsage(info: AccountTierInfo): string {
  const { clientCount, tierConfig } = info;
  const noun = clientCount === 1 && tierConfig.clientLimit === null ? "client" : "clients";
  return tierConfig.clientLimit === null
    ? `${clientCount} ${noun} · Unlimited`
    : `${clientCount} / ${tierConfig.clientLimit} ${noun}`;
}
