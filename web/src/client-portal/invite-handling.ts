import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { fetchCurrentUser, setCurrentUser } from "../api/current-user";
import {
  acceptInvite,
  failureReason,
  type InviteLink,
  type InviteRefusal,
  type InviteStep,
  resolveShortCode,
} from "./invite-link";
import { navigate } from "./portal-location";

/** What following the address's invite link has come to. */
export type InviteHandling =
  | { state: "none" }
  | { state: "processing" }
  /**
   * The link did not open the conversation: the portal's sign-in page says why. `retry`
   * follows it again (after "Sign out and open this invite").
   */
  | { state: "refused"; link: InviteLink; refusal: InviteRefusal; retry: () => void };

const keyOf = (link: InviteLink | null) =>
  link === null ? null : "token" in link ? `token:${link.token}` : `code:${link.code}`;

/**
 * Handles /invite/{token} (one attempt per token until retried: sign in as the client, then
 * open the conversation) and /client?code=... (resolve the short code to its invite token). A
 * link that does not open the conversation stays on the portal, whose sign-in page offers a
 * sign-in link by email: a client never lands on the owners' sign-in page.
 */
export function useInviteHandling(link: InviteLink | null): InviteHandling {
  const queryClient = useQueryClient();
  const handled = useRef<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const key = keyOf(link);
  const work = key && `${key}#${attempt}`;
  const [refused, setRefused] = useState<{ work: string; refusal: InviteRefusal } | null>(null);

  useEffect(() => {
    if (!link || !work || handled.current === work) return;
    handled.current = work;
    const go = (step: InviteStep) => {
      if ("refused" in step) setRefused({ work, refusal: step.refused });
      else navigate(step.navigate, { replace: true });
    };
    if ("token" in link) {
      void acceptInvite(link.token).then(async (step) => {
        if ("navigate" in step) {
          try {
            setCurrentUser(queryClient, await fetchCurrentUser());
          } catch (error) {
            return go({ refused: failureReason(error) });
          }
        }
        go(step);
      });
    } else {
      void resolveShortCode(link.code).then(go);
    }
  }, [link, work, queryClient]);

  if (!link || !work) return { state: "none" };
  if (refused?.work === work) {
    return {
      state: "refused",
      link,
      refusal: refused.refusal,
      retry: () => setAttempt(attempt + 1),
    };
  }
  return { state: "processing" };
}
