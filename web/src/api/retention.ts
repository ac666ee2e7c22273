import { useQuery } from "@tanstack/react-query";
import type { Retention } from "../../../shared/schemas/deleted-clients";
import { apiGet } from "./client";
import { queryKeys } from "./query-keys";

/** GET /api/workspace/retention: the days a deleted client is kept for a restore (issue 28). */
export function useRetentionDays(enabled = true) {
  return useQuery({
    queryKey: queryKeys.retention,
    queryFn: () => apiGet<Retention>("/api/workspace/retention"),
    enabled,
    select: (answer) => answer.days,
  });
}
