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
  /** The workspace's saved replies (issue 28; GET /api/saved-replies, the staff only). */
  savedReplies: ["saved-replies"] as const,
  clients: ["clients"] as const,
  /**
   * Deleted clients that can be restored (issue 28; owner and admins): under the clients' key, so
   * what refreshes the client list (a deletion, a restore, client_access_changed) refreshes it.
   */
  deletedClients: ["clients", "deleted"] as const,
  /** How many days the workspace keeps a deleted client (GET /api/workspace/retention). */
  retention: ["workspace-retention"] as const,
  /** The language the workspace invites new clients in (issue 29; GET /api/workspace/language). */
  workspaceLanguage: ["workspace-language"] as const,
  client: (clientId: string) => ["clients", clientId] as const,
  /** Who handles a client; under its key, so what refreshes the clients refreshes this too. */
  assignees: (clientId: string) => ["clients", clientId, "assignees"] as const,
  /** A client's people (issue 26), under its key as well. */
  contacts: (clientId: string) => ["clients", clientId, "contacts"] as const,
  /** A conversation's messages (an infinite query: newest page first, older pages after). */
  messages: (clientId: string) => ["messages", clientId] as const,
  allMessages: ["messages"] as const,
  /**
   * The viewer's side's scheduled messages in a conversation (issue 28); under its messages'
   * key, so a catch-up refreshes them too; scheduled_changed refreshes them by name.
   */
  scheduled: (clientId: string) => ["messages", clientId, "scheduled"] as const,
  attachments: (clientId: string) => ["attachments", clientId] as const,
  /** A file's versions; under the conversation's key, so its events refresh the history too. */
  versions: (clientId: string, messageId: string) =>
    ["messages", clientId, "versions", messageId] as const,
  /**
   * The review marks of one version of a file (issue 27); under the conversation's key, so
   * its events (annotations_changed among them) refresh them too.
   */
  annotations: (clientId: string, messageId: string, version: number) =>
    ["messages", clientId, "annotations", messageId, version] as const,
  /**
   * A message's previous texts (issue 28, the staff's "Edited" history); under the
   * conversation's key, so its message_updated events refresh them too.
   */
  messageEdits: (clientId: string, messageId: string) =>
    ["messages", clientId, "edits", messageId] as const,
  /** The public branding of a client's signed-out pages, by what names the conversation. */
  portalBranding: (lookup: string) => ["portal-branding", lookup] as const,
  /** Search results (an infinite query, newest first) for the words, in one conversation or all. */
  search: (q: string, clientId?: string) => ["search", clientId ?? "all", q] as const,
  allSearches: ["search"] as const,
  /** What an email's Approve or Needs Work link opens (client-portal/feedback-link-page.tsx). */
  feedbackLink: (token: string) => ["feedback-link", token] as const,
};
