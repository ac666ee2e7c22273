import type { Role } from "../shared/schemas/user";

/** A conversation in the app: in the dashboard for its owner, in the portal for its client. */
export function conversationUrl(appUrl: string, viewerRole: Role, clientId: string): string {
  return viewerRole === "owner"
    ? `${appUrl}/?client=${encodeURIComponent(clientId)}`
    : `${appUrl}/client/${encodeURIComponent(clientId)}`;
}
