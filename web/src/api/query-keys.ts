/** Every TanStack Query key in one place, so invalidation cannot miss a spelling. */
export const queryKeys = {
  user: ["user"] as const,
  accountTier: ["account-tier"] as const,
  subscriptionStatus: ["subscription-status"] as const,
  /**
   * The workspace's seats (GET /api/subscription/seats): under the subscription's key, so a plan
   * change refreshes them too; team changes refresh them by name.
   */
  seats: ["subscription-status", "seats"] as const,
  googleAvailable: ["google-available"] as const,
  billingMode: ["billing-mode"] as const,
  /** The signed-in person's workspace members (GET /api/team/members). */
  teamMembers: ["team-members"] as const,
  /** The workspace's pending invites (GET /api/team/invites; owner and admins). */
  teamInvites: ["team-invites"] as const,
  /** The workspace's audit log (an infinite query, newest first; owner and admins). */
  teamAudit: ["team-audit"] as const,
  /** What a team invite link offers (the join page, GET /api/team/invites/{token}). */
  teamInvite: (token: string) => ["team-invite", token] as const,
  clients: ["clients"] as const,
  client: (clientId: string) => ["clients", clientId] as const,
  /** Who handles a client; under its key, so what refreshes the clients refreshes this too. */
  assignees: (clientId: string) => ["clients", clientId, "assignees"] as const,
  /** A client's people (issue 26), under its key as well. */
  contacts: (clientId: string) => ["clients", clientId, "contacts"] as const,
  /** A conversation's messages (an infinite query: newest page first, older pages after). */
  messages: (clientId: string) => ["messages", clientId] as const,
  allMessages: ["messages"] as const,
  attachments: (clientId: string) => ["attachments", clientId] as const,
  /** A file's versions; under the conversation's key, so its events refresh the history too. */
  versions: (clientId: string, messageId: string) =>
    ["messages", clientId, "versions", messageId] as const,
  /** The public branding of a client's signed-out pages, by what names the conversation. */
  portalBranding: (lookup: string) => ["portal-branding", lookup] as const,
  /** Search results (an infinite query, newest first) for the words, in one conversation or all. */
  search: (q: string, clientId?: string) => ["search", clientId ?? "all", q] as const,
  allSearches: ["search"] as const,
  /** What an email's Approve or Needs Work link opens (client-portal/feedback-link-page.tsx). */
  feedbackLink: (token: string) => ["feedback-link", token] as const,
};
