import type {
  AcceptInviteResponse,
  ResolveShortLinkResponse,
} from "../../../shared/schemas/clients";
import { ApiError, apiGet, apiPost } from "../api/client";
import type { PortalRoute } from "./portal-location";

/**
 * Following an invite link without React (invite-handling.ts runs it): which link the address
 * carries, and where each answer of the server leads.
 */

/** /invite/{token}, or /client?code=... (a short link) when no conversation is named. */
export type InviteLink = { token: string } | { code: string };

/**
 * Why a link did not open the conversation. used: the server says it was used or replaced
 * (410 reason "used"); invalid: any other refusal (a link that never existed); failed: no
 * answer or a server error; own: the owner opened their own client's link (409, its message);
 * signed_in: someone else is signed in here (409 reason "signed_in", its message names them).
 */
export type InviteRefusal =
  | { reason: "used" | "invalid" | "failed" }
  | { reason: "own" | "signed_in"; message: string };

/** Where the portal goes next: an address in the portal, or the portal's sign-in page and why. */
export type InviteStep = { navigate: string } | { refused: InviteRefusal };

export function inviteLinkIn(route: PortalRoute): InviteLink | null {
  if (route.token) return { token: route.token };
  const code = route.clientId ? null : route.searchParams.get("code");
  return code ? { code } : null;
}

/** A refusal from the server means a used or bad link; anything else (network, 5xx) is our failure. */
export function failureReason(error: unknown): InviteRefusal {
  if (!(error instanceof ApiError) || error.status >= 500) return { reason: "failed" };
  const body = error.body as { reason?: unknown } | null;
  if (error.status === 410 && body?.reason === "used") return { reason: "used" };
  if (error.status === 409) {
    return { reason: body?.reason === "signed_in" ? "signed_in" : "own", message: error.message };
  }
  return { reason: "invalid" };
}

/** POST /api/invite/{token} signs this browser in as the client: next, their conversation. */
export async function acceptInvite(token: string): Promise<InviteStep> {
  try {
    const answer = await apiPost<AcceptInviteResponse>(`/api/invite/${encodeURIComponent(token)}`);
    if (!answer?.success || !answer.clientId) return { refused: { reason: "invalid" } };
    return { navigate: `/client/${encodeURIComponent(answer.clientId)}` };
  } catch (error) {
    return { refused: failureReason(error) };
  }
}

/** GET /api/short-link/{code} names the invite: next, that invite's address. */
export async function resolveShortCode(code: string): Promise<InviteStep> {
  try {
    const answer = await apiGet<ResolveShortLinkResponse>(
      `/api/short-link/${encodeURIComponent(code)}`,
    );
    if (!answer?.inviteToken) return { refused: { reason: "invalid" } };
    return { navigate: `/invite/${encodeURIComponent(answer.inviteToken)}` };
  } catch (error) {
    return { refused: failureReason(error) };
  }
}
