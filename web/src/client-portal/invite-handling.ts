import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { AcceptInviteResponse, ResolveShortLinkResponse } from "../../../shared/schemas/clients";
import { ApiError, apiGet, apiPost } from "../api/client";
import { fetchCurrentUser, setCurrentUser } from "../api/current-user";
import { navigate } from "./portal-location";

/**
 * The sign-in page is another entry of the site, so a notice cannot travel there as a toast;
 * /auth shows it from the error parameter.
 */
function leaveForSignIn(reason: "invite-invalid" | "invite-failed") {
  window.location.replace(`/auth?error=${reason}`);
}

/** A refusal from the server means a bad link; anything else (network, 5xx) is our failure. */
function failureReason(error: unknown): "invite-invalid" | "invite-failed" {
  return error instanceof ApiError && error.status < 500 ? "invite-invalid" : "invite-failed";
}

/**
 * Handles /invite/{token} (one attempt per token: sign in as the client, then open the
 * conversation) and /client?code=... (resolve the short code to its invite token).
 * Returns whether something is being handled.
 */
export function useInviteHandling(token: string | undefined, code: string | null): boolean {
  const queryClient = useQueryClient();
  const handled = useRef<string | null>(null);
  const work = token ? `token:${token}` : code ? `code:${code}` : null;

  useEffect(() => {
    if (!work || handled.current === work) return;
    handled.current = work;
    if (token) {
      apiPost<AcceptInviteResponse>(`/api/invite/${encodeURIComponent(token)}`)
        .then(async (answer) => {
          if (!answer?.success || !answer.clientId) return leaveForSignIn("invite-invalid");
          setCurrentUser(queryClient, await fetchCurrentUser());
          navigate(`/client/${encodeURIComponent(answer.clientId)}`, { replace: true });
        })
        .catch((error: unknown) => leaveForSignIn(failureReason(error)));
    } else if (code) {
      apiGet<ResolveShortLinkResponse>(`/api/short-link/${encodeURIComponent(code)}`)
        .then((answer) => {
          if (!answer?.inviteToken) return leaveForSignIn("invite-invalid");
          navigate(`/invite/${encodeURIComponent(answer.inviteToken)}`, { replace: true });
        })
        .catch((error: unknown) => leaveForSignIn(failureReason(error)));
    }
  }, [work, token, code, queryClient]);

  return work !== null;
}
