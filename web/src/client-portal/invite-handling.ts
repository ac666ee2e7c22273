import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { fetchCurrentUser, setCurrentUser } from "../api/current-user";
import {
  acceptInvite,
  failureReason,
  type InviteLink,
  type InviteStep,
  resolveShortCode,
} from "./invite-link";
import { navigate } from "./portal-location";

/**
 * The sign-in page is another entry of the site, so a notice cannot travel there as a toast;
 * /auth shows it from the error parameter.
 */
function leaveForSignIn(reason: "invite-invalid" | "invite-failed") {
  window.location.replace(`/auth?error=${reason}`);
}

/**
 * Handles /invite/{token} (one attempt per token: sign in as the client, then open the
 * conversation) and /client?code=... (resolve the short code to its invite token).
 * Returns whether something is being handled.
 */
export function useInviteHandling(link: InviteLink | null): boolean {
  const queryClient = useQueryClient();
  const handled = useRef<string | null>(null);
  const token = link && "token" in link ? link.token : undefined;
  const code = link && "code" in link ? link.code : undefined;
  const work = token ? `token:${token}` : code ? `code:${code}` : null;

  useEffect(() => {
    if (!work || handled.current === work) return;
    handled.current = work;
    const go = (step: InviteStep) => {
      if ("signIn" in step) leaveForSignIn(step.signIn);
      else navigate(step.navigate, { replace: true });
    };
    if (token) {
      void acceptInvite(token).then(async (step) => {
        if ("navigate" in step) {
          try {
            setCurrentUser(queryClient, await fetchCurrentUser());
          } catch (error) {
            return leaveForSignIn(failureReason(error));
          }
        }
        go(step);
      });
    } else if (code) {
      void resolveShortCode(code).then(go);
    }
  }, [work, token, code, queryClient]);

  return work !== null;
}
