import type { Visibility } from "../../shared/schemas/message-payload";
import type { Role } from "../../shared/schemas/user";

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
  /**
   * Its author edited or deleted message `messageId` (issue 28). `internal`: a note's, which
   * only the staff hear of.
   */
  | {
      type: "MessageEdited" | "MessageDeleted";
      clientId: string;
      messageId: string;
      visibility: Visibility;
    }
  /**
   * The review marks on file version `messageId` changed (issue 27): one was made, answered,
   * resolved or reopened. `internal`: only staff-only marks changed (the client hears nothing).
   */
  | { type: "AnnotationsChanged"; clientId: string; messageId: string; visibility: Visibility }
  /**
   * The scheduled messages (issue 28) of one side of a conversation changed: scheduled, edited,
   * sent, cancelled or dropped. Only that side hears of it.
   */
  | { type: "ScheduledMessagesChanged"; clientId: string; side: Role }
  /** A file was decided on, or (issue 27) its thread's due date changed. */
  | { type: "FeedbackDecided" | "DueDateChanged"; clientId: string; messageId: string }
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
  /**
   * A client and everything of theirs is gone; `userIds`: its contacts' logins (issue 26).
   * `workspaceId` when the client is kept for a restore (issue 28): its staff's pages hear of it.
   */
  | { type: "ClientDeleted"; clientId: string; userIds: string[]; workspaceId?: string }
  /** A deleted client was brought back (issue 28): the staff of `workspaceId` hear of it. */
  | { type: "ClientRestored"; clientId: string; workspaceId: string }
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
