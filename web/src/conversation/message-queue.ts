import type { Connectivity } from "../api/connectivity";
import { RETRY_DELAYS_MS } from "../api/idempotent-post";
import type { Message } from "./message-pages";
import { type OutboxEntry, outbox } from "./outbox";

/**
 * Sends the outbox's text messages, one conversation's at a time and in order, each with its
 * own Idempotency-Key on every attempt (the server stores a key once: a first attempt that
 * reached it before the connection dropped is answered, not stored again). While the server
 * cannot be reached the messages wait as "queued"; they go out when it can. Free of React.
 */

/**
 * Attempts of one message that got no answer while the server otherwise answered (the probe,
 * other requests): then something is wrong with this request, and it shows as Not sent.
 */
export const MAX_MISSES = 4;

export interface MessageQueueOptions {
  /**
   * The connectivity model, or null where there is none (the client portal): then a message
   * that gets no answer is tried again after RETRY_DELAYS_MS, and then shows as Not sent.
   */
  connectivity: Pick<Connectivity, "state" | "subscribe" | "reportUnreachable"> | null;
  /** POSTs the entry with its key; throws what failed. */
  post(clientId: string, entry: OutboxEntry): Promise<Message>;
  /** Whether an error means the server was not reached (else the server refused). */
  isUnreachable(error: unknown): boolean;
  /** The server stored the entry as `message`. */
  onSent(clientId: string, entry: OutboxEntry, message: Message): void;
  /** The reason shown under a refused message. */
  reasonOf(error: unknown): string;
  /** A fresh Idempotency-Key. */
  newKey(): string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type OnRefused = (error: unknown) => void;

export interface MessageQueue {
  /** Adds a message to the conversation's outbox and sends it when its turn comes. */
  send(
    clientId: string,
    content: string,
    afterId: string | undefined,
    onRefused: OnRefused,
    visibility?: "internal",
  ): void;
  /** Sends a Not sent message again, with its key. */
  retry(clientId: string, key: string, onRefused?: OnRefused): void;
}

export function createMessageQueue(options: MessageQueueOptions): MessageQueue {
  const { connectivity } = options;
  const draining = new Set<string>();
  /** Who hears of a refusal: the composer (puts the text back) or a Retry (a notice). */
  const refusalHandlers = new Map<string, OnRefused>();

  const current = (clientId: string, key: string) =>
    outbox.of(clientId).find((entry) => entry.key === key);

  /** Everything not yet sent waits for the connection. */
  const wait = (clientId: string) => {
    for (const entry of outbox.of(clientId)) {
      if (entry.state === "sending") outbox.update(clientId, entry.key, { state: "queued" });
      if (entry.state !== "failed" && !entry.waited) {
        outbox.update(clientId, entry.key, { waited: true });
      }
    }
  };

  const refuse = (clientId: string, key: string, error: unknown) => {
    const handler = refusalHandlers.get(key);
    refusalHandlers.delete(key);
    const entry = current(clientId, key);
    // Just typed and refused at once: back to the field, as before there was a queue. Sent
    // later from the queue: the field may hold something else by now, so it stays Not sent.
    if (handler && entry && !entry.waited) {
      outbox.remove(clientId, key);
    } else {
      outbox.update(clientId, key, { state: "failed", reason: options.reasonOf(error) });
    }
    handler?.(error);
  };

  const drain = async (clientId: string) => {
    if (draining.has(clientId)) return;
    draining.add(clientId);
    try {
      for (;;) {
        const entry = outbox
          .of(clientId)
          .find((candidate) => candidate.state === "sending" || candidate.state === "queued");
        if (!entry) return;
        if (connectivity && connectivity.state !== "online") {
          wait(clientId);
          return;
        }
        outbox.update(clientId, entry.key, { state: "sending" });
        try {
          const message = await options.post(clientId, entry);
          refusalHandlers.delete(entry.key);
          options.onSent(clientId, entry, message);
        } catch (error) {
          if (!options.isUnreachable(error)) {
            refuse(clientId, entry.key, error);
            continue;
          }
          const misses = (current(clientId, entry.key)?.misses ?? 0) + 1;
          if (misses >= MAX_MISSES) {
            // No answer, but not a refusal: Not sent (with Retry), quietly, as before the queue.
            refusalHandlers.delete(entry.key);
            outbox.update(clientId, entry.key, { state: "failed", misses: 0 });
            continue;
          }
          outbox.update(clientId, entry.key, { misses });
          if (!connectivity) {
            await sleep(RETRY_DELAYS_MS[misses - 1] ?? 0);
            continue;
          }
          connectivity.reportUnreachable();
          wait(clientId);
          return;
        }
      }
    } finally {
      draining.delete(clientId);
    }
  };

  connectivity?.subscribe(() => {
    if (connectivity.state !== "online") return;
    for (const clientId of outbox.clientIds()) void drain(clientId);
  });

  return {
    send(clientId, content, afterId, onRefused, visibility) {
      const online = connectivity?.state !== "offline";
      const key = options.newKey();
      refusalHandlers.set(key, onRefused);
      outbox.add(clientId, {
        key,
        content,
        ...(visibility && { visibility }),
        state: online ? "sending" : "queued",
        afterId,
        waited: !online,
      });
      void drain(clientId);
    },
    retry(clientId, key, onRefused) {
      if (onRefused) refusalHandlers.set(key, onRefused);
      else refusalHandlers.delete(key);
      outbox.update(clientId, key, { state: "sending", misses: 0, reason: undefined });
      void drain(clientId);
    },
  };
}
