import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useCurrentUser } from "../api/current-user";
import { MESSAGE_MAX_LENGTH } from "../../../shared/message-limits";
import {
  MAX_PENDING_MESSAGES,
  MAX_REASON_LENGTH,
  type PendingMessage,
  type PendingMessageStore,
} from "../platform/pending-messages";
import { resumeMessageQueue } from "../conversation/messages-query";
import { i18n } from "../i18n/i18n";
import { type OutboxEntry, outbox, subscribe as onOutboxChange } from "../conversation/outbox";

/** Changes come in bursts (sending, then confirmed): one write for the burst. */
export const SAVE_DELAY_MS = 300;
/**
 * The server answers a key with its first result for 24 hours. A message queued longer than
 * this (with a margin) may have been stored under a key it has forgotten: it comes back as
 * Not sent, for the owner to check the conversation and Retry, never sent by itself.
 */
export const STALE_AFTER_MS = 23 * 60 * 60_000;
/** Why a stale message is Not sent, in the owner's language when it is restored. */
const staleReason = () =>
  i18n.t("it waited over a day; check the conversation before you retry", { ns: "common" });

/** When each entry was first seen: saved with it, for STALE_AFTER_MS. */
const firstSeen = new Map<string, number>();

function pendingMessages(now: number): PendingMessage[] {
  const all: PendingMessage[] = [];
  const seen = new Map<string, number>();
  for (const clientId of outbox.clientIds()) {
    for (const entry of outbox.of(clientId)) {
      // Longer than the server accepts: main would refuse the whole list for it.
      if (entry.content.length > MESSAGE_MAX_LENGTH) continue;
      // An internal note is not kept across restarts: a restored entry would go out as a
      // message to the client (the saved list has no visibility).
      if (entry.visibility) continue;
      const since = firstSeen.get(entry.key) ?? now;
      seen.set(entry.key, since);
      const reason = entry.reason?.slice(0, MAX_REASON_LENGTH);
      all.push({
        clientId,
        key: entry.key,
        content: entry.content,
        ...(entry.afterId ? { afterId: entry.afterId } : {}),
        ...(entry.state === "failed" ? { failed: true, ...(reason ? { reason } : {}) } : {}),
        since,
      });
    }
  }
  // Only the entries still there: sent ones are forgotten.
  firstSeen.clear();
  for (const [key, since] of seen) firstSeen.set(key, since);
  return all.slice(0, MAX_PENDING_MESSAGES);
}

function restore(messages: PendingMessage[], now: number): void {
  const byClient = new Map<string, OutboxEntry[]>();
  for (const message of messages) {
    firstSeen.set(message.key, message.since);
    const stale = now - message.since > STALE_AFTER_MS;
    const failed = message.failed || stale;
    const entry: OutboxEntry = {
      key: message.key,
      content: message.content,
      afterId: message.afterId,
      // It waited for the connection: a refusal leaves it as Not sent, not in the field.
      state: failed ? "failed" : "queued",
      waited: true,
      ...(failed && (message.reason || stale) ? { reason: message.reason ?? staleReason() } : {}),
    };
    byClient.set(message.clientId, [...(byClient.get(message.clientId) ?? []), entry]);
  }
  for (const [clientId, entries] of byClient) restoreInto(clientId, entries);
}

/** Saved entries go before any sent since (they are older); known keys are skipped. */
function restoreInto(clientId: string, saved: OutboxEntry[]): void {
  const current = outbox.of(clientId);
  const known = new Set(current.map((entry) => entry.key));
  const missing = saved.filter((entry) => !known.has(entry.key));
  if (missing.length === 0) return;
  for (const entry of current) outbox.remove(clientId, entry.key);
  for (const entry of [...missing, ...current]) outbox.add(clientId, entry);
}

function clearOutbox(): void {
  for (const clientId of outbox.clientIds()) {
    for (const entry of outbox.of(clientId)) outbox.remove(clientId, entry.key);
  }
}

/**
 * Keeps the signed-in owner's unsent messages in the platform's store (the desktop app): at
 * start they come back into the outbox and go out with their own keys when the server can be
 * reached (the server stores a key once: no duplicates); every change is saved, shortly after.
 * On sign-out the outbox is emptied (main deletes the file with the session).
 */
export function KeepPendingMessages({ store }: { store: PendingMessageStore }) {
  const queryClient = useQueryClient();
  const { data: user } = useCurrentUser();
  const userId = user?.id ?? null;

  useEffect(() => {
    if (!userId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unsubscribe = () => {};
    const save = () => {
      clearTimeout(timer);
      timer = undefined;
      store.save(userId, pendingMessages(Date.now())).catch(() => {});
    };
    const saveSoon = () => {
      clearTimeout(timer);
      timer = setTimeout(save, SAVE_DELAY_MS);
    };
    // Closing the window within SAVE_DELAY_MS of a change: save it now.
    const flush = () => {
      if (timer !== undefined) save();
    };

    store
      .load(userId)
      .catch(() => [])
      .then((saved) => {
        if (stopped) return;
        restore(saved, Date.now());
        resumeMessageQueue(queryClient);
        // Only after loading: an earlier save would replace the file with nothing.
        unsubscribe = onOutboxChange(saveSoon);
        window.addEventListener("pagehide", flush);
        saveSoon();
      });

    return () => {
      stopped = true;
      flush();
      unsubscribe();
      window.removeEventListener("pagehide", flush);
    };
  }, [queryClient, store, userId]);

  // Signed out (or another owner signed in): the previous owner's messages are not theirs.
  useEffect(() => {
    if (user === null) {
      clearOutbox();
      firstSeen.clear();
    }
  }, [user]);

  return null;
}
