/**
 * The owner's unsent text messages as a platform keeps them across restarts (the desktop app,
 * encrypted in its user data folder). The web build keeps none: browsers may be shared.
 */
export interface PendingMessage {
  clientId: string;
  /** The Idempotency-Key of every attempt so far: re-sending it cannot store it twice. */
  key: string;
  content: string;
  /** The newest message of the conversation when it was sent (none: it was empty). */
  afterId?: string;
  /** Not sent (refused, or kept failing): shown with Retry, not sent by itself. */
  failed?: boolean;
  reason?: string;
  /** When it was first queued (ms since the epoch): keys are kept by the server for 24 h. */
  since: number;
}

export interface PendingMessageStore {
  /** The user's saved messages; none for another user's. */
  load(userId: string): Promise<PendingMessage[]>;
  /** Replaces what is saved with the user's current messages (none: deletes the file). */
  save(userId: string, messages: PendingMessage[]): Promise<void>;
}

/** At most this many are kept; more than that unsent is unlikely and would be refused. */
export const MAX_PENDING_MESSAGES = 200;
/** A refusal's reason is kept up to this length. */
export const MAX_REASON_LENGTH = 1000;
