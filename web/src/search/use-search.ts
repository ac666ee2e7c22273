import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { queryKeys } from "../api/query-keys";
import { fetchSearchPage } from "../api/search";

/** How long typing pauses before the words are searched. */
const TYPING_PAUSE_MS = 200;

function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    // Clearing the field shows the cleared state at once.
    if (!value) {
      setSettled(value);
      return;
    }
    const timer = setTimeout(() => setSettled(value), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/**
 * Results for what is typed, once typing pauses: newest first, older pages on demand. The
 * previous words' results stay on screen while the next ones load.
 */
export function useSearchResults(typed: string, clientId?: string) {
  const q = useSettled(typed.trim());
  const query = useInfiniteQuery({
    queryKey: queryKeys.search(q, clientId),
    queryFn: ({ pageParam }) => fetchSearchPage({ q, clientId, before: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const results = q ? (query.data?.pages.flatMap((page) => page.results) ?? []) : [];
  return { q, results, ...query, settling: typed.trim() !== q };
}
