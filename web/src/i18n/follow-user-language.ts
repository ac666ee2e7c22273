import type { QueryClient } from "@tanstack/react-query";
import type { User } from "../../../shared/schemas/user";
import type { FirstScreenOutcome } from "../api/first-screen";
import { adoptServerLanguage } from "./i18n";

/**
 * The page follows the language the server resolved for the signed-in person (issue 29: their
 * pick, else their client's or workspace's, else their browser's) whenever the user payload
 * arrives: after sign-in, GET /api/user, an invite accepted.
 */
export function followUserLanguage(queryClient: QueryClient): void {
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== "updated" || event.query.queryKey[0] !== "user") return;
    const user = event.query.state.data as User | null | undefined;
    if (user?.language) void adoptServerLanguage(user.language).catch(() => undefined);
  });
}

/**
 * The first data's language, adopted before the first render (so the page does not show in
 * one language and then another): `.then(adoptFirstScreenLanguage)` on [outcome, catalogs].
 */
export async function adoptFirstScreenLanguage<
  Values extends readonly [FirstScreenOutcome<{ user: Pick<User, "language"> }>, ...unknown[]],
>(values: Values): Promise<Values> {
  const [outcome] = values;
  if (outcome.kind === "loaded") await adoptServerLanguage(outcome.data.user.language);
  return values;
}
