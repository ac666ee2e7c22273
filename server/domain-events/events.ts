import type { Visibility } from "../../shared/schemas/message-payload";

/**
 * What happened, as commands record it (server/domain-events/domain-events.ts): ids only, so an
 * event row never holds a message's text or a person's data, and a listener reads what it needs.
 */
export type DomainEvent =
  /** A message in a conversation: text (also by email reply), a file, or a file's new version. */
  | {
      type: "MessageCreated" | "FileUploaded" | "VersionUploaded";
      clientId: string;
      messageId: string;
      senderId: string;
      /** `internal` for a note of the staff (issue 26); absent in events written before notes. */
      visibility?: Visibility;
    }
  | { type: "FeedbackDecided"; clientId: string; messageId: string }
  /** One side's read mark moved forward to `messageId`. */
  | { type: "MessagesRead"; clientId: string; messageId: string }
  /** A client opened their invite for the first time. */
  | { type: "ClientJoined"; clientId: string }
  /**
   * Who handles a client changed (issue 26): `userIds` are the staff who had it or have it now
   * by assignment, whose pages learn of it.
   */
  | { type: "ClientAssigneesChanged"; clientId: string; userIds: string[] }
  /**
   * The team of workspace `workspaceId` changed (issue 26): someone was invited, an invite was
   * withdrawn, someone joined, changed role or left, or the bought seats changed. Its staff's
   * open Team tabs (and a changed person's own role) look again.
   */
  | { type: "TeamChanged"; workspaceId: string }
  /** A client and everything of theirs is gone; `userIds`: its contacts' logins (issue 26). */
  | { type: "ClientDeleted"; clientId: string; userIds: string[] }
  /** An owner deleted their account: these users (the owner and their clients) are gone. */
  | { type: "AccountDeleted"; userIds: string[] }
  /** What the owner's clients see of them changed (colours, logo, names, picture). */
  | { type: "BrandingChanged"; ownerId: string }
  /** The owner's plan changed (which decides whether their branding shows). */
  | { type: "PlanChanged"; ownerId: string }
  /**
   * Sessions ended (sign-out everywhere, password change or reset, a re-issued invite).
   * `signedInAnew`: the ended session of the browser that made the change, signed in again
   * under a new session by the route.
   */
  | { type: "SessionEnded"; userId: string; sessionHashes: string[]; signedInAnew?: string };

export type DomainEventType = DomainEvent["type"];

/** The event as a listener receives it: its id (the outbox row's) and the event itself. */
export interface RecordedEvent<E extends DomainEvent = DomainEvent> {
  id: string;
  event: E;
  /**
   * What the recording command already had in memory (the message, the client, the sender),
   * so that the send path reads nothing twice. Absent when the job runs a left-over row:
   * listeners then read it from the database.
   */
  loaded?: Record<string, unknown>;
}

/** A listener of domain events: it must be safe to run twice for one event (it is retried). */
export interface EventListener<S = unknown> {
  name: string;
  handles: readonly DomainEventType[];
  handle(services: S, recorded: RecordedEvent): Promise<void> | void;
}
