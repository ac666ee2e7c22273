import type { User } from "../api/current-user";
import type { PortalClient } from "./portal-client-query";

/** What the client page shows (spec section 2, "Client page"). */
export type PortalState =
  | { kind: "processing" }
  | { kind: "missing_auth" }
  | { kind: "redirect_owner" }
  /** A signed-in client on /invite or /client without an id: their own conversation. */
  | { kind: "redirect_own_conversation"; clientId: string }
  | { kind: "no_client" }
  | { kind: "main"; user: User; client: PortalClient };

export interface PortalInputs {
  /** An invite token or short code is being handled. */
  inviteInProgress: boolean;
  /** undefined while loading, null when nobody is signed in. */
  user: User | null | undefined;
  routeClientId: string | undefined;
  client: { status: "pending" | "error" | "success"; data?: PortalClient };
}

export function portalState({
  inviteInProgress,
  user,
  routeClientId,
  client,
}: PortalInputs): PortalState {
  if (inviteInProgress || user === undefined) return { kind: "processing" };
  if (!user) return { kind: "missing_auth" };
  if (user.role !== "client") return { kind: "redirect_owner" };
  if (!routeClientId) {
    return user.clientId
      ? { kind: "redirect_own_conversation", clientId: user.clientId }
      : { kind: "no_client" };
  }
  if (client.status === "pending") return { kind: "processing" };
  if (client.status === "error" || !client.data) return { kind: "no_client" };
  return { kind: "main", user, client: client.data };
}
