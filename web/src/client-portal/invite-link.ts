import type { AcceptInviteResponse, ResolveShortLinkResponse } from "../../../shared/schemas/clients";
import { ApiError, apiGet, apiPost } from "../api/client";
import type { PortalRoute } from "./portal-location";

/**
 * Following an invite link without React (invite-handling.ts runs it): which link the address
 * carries, and where each answer of the server leads.
 */

/** /invite/{token}, or /client?code=... (a short link) when no conversation is named. */
export type InviteLink = { token: string } | { code: string };

/** Where the portal goes next: an address in the portal, or the sign-in page with the reason. */
export type InviteStep = { navigate: string } | { signIn: "invite-invalid" | "invite-failed" };

export function inviteLinkIn(route: PortalRoute): InviteLink | null {
  if (route.token) return { token: route.token };
  const code = route.clientId ? null : route.searchParams.get("code");
  return code ? { code } : null;
}

/** A refusal from the server means a bad link; anything else (network, 5xx) is our failure. */
export function failureReason(error: unknown): "invite-invalid" | "invite-failed" {
  return error instanceof ApiError && error.status < 500 ? "invite-invalid" : "invite-failed";
}

/** POST /api/invite/{token} signs this browser in as the client: next, their conversation. */
export async function acceptInvite(token: string): Promise<InviteStep> {
  try {
    const answer = await apiPost<AcceptInviteResponse>(`/api/invite/${encodeURIComponent(token)}`);
    if (!answer?.success || !answer.clientId) return { signIn: "invite-invalid" };
    return { navigate: `/client/${encodeURIComponent(answer.clientId)}` };
  } catch (error) {
    return { signIn: failureReason(error) };
  }
}

/** GET /api/short-link/{code} names the invite: next, that invite's address. */
export async function resolveShortCode(code: string): Promise<InviteStep> {
  try {
    const answer = await apiGet<ResolveShortLinkResponse>(`/api/short-link/${encodeURIComponent(code)}`);
    if (!answer?.inviteToken) return { signIn: "invite-invalid" };
    return { navigate: `/invite/${encodeURIComponent(answer.inviteToken)}` };
  } catch (error) {
    return { signIn: failureReason(error) };
  }
}
