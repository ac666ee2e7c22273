import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { installedConnectivity } from "../api/installed-connectivity";
import { apiUrl } from "../api/client";
import { queryKeys } from "../api/query-keys";
import type { PresenceStore } from "./presence-store";
import {
  connectRealtime,
  type RealtimeEvent,
  type RealtimeStatus,
  websocketUrl,
} from "./realtime-connection";

/** Whose page listens: the owner dashboard or the client portal refresh different lists. */
export type RealtimeSide = "owner" | "client";

/**
 * What an event makes stale: the lists refetch through the API. `placed`: the event's new
 * message is in its conversation already (placeArrivedMessage), which need not refetch.
 */
export function invalidationsFor(
  event: RealtimeEvent,
  side: RealtimeSide,
  placed = false,
): readonly unknown[][] {
  if (event.type === "client_joined") {
    // ["clients"] covers the list and each client's details.
    return side === "owner" ? [[...queryKeys.clients]] : [];
  }
  if (event.type === "client_access_changed") {
    // Who handles it changed (issue 26): the list, and the conversation the staff member may
    // have just gained or lost, look again (a lost one answers 404 and closes).
    return side === "owner"
      ? [
          [...queryKeys.clients],
          [...queryKeys.messages(event.clientId)],
          [...queryKeys.allSearches],
        ]
      : [];
  }
  if (event.type === "team_changed") {
    return side === "owner" ? teamInvalidations() : [];
  }
  if (event.type === "scheduled_changed") {
    // Scheduled send (issue 28): only the side that scheduled hears of it.
    return [[...queryKeys.scheduled(event.clientId)]];
  }
  if (event.type === "presence") {
    // Who else is in a conversation (issue 26): nothing to fetch (the presence store has it).
    return [];
  }
  if (event.type === "branding_updated") {
    // The portal shows the owner's colours, logo, names and picture from the client's details,
    // and the owner's name and picture on their messages (authorName, authorPicture); the
    // owner's own pages have the change already.
    return side === "client"
      ? [[...queryKeys.client(event.clientId)], [...queryKeys.messages(event.clientId)]]
      : [];
  }
  const keys: unknown[][] = placed ? [] : [[...queryKeys.messages(event.clientId)]];
  if (event.type !== "messages_read") keys.push([...queryKeys.attachments(event.clientId)]);
  // An edited or deleted message (issue 28) is found by its new text, or not at all.
  if (event.type === "message_updated" || event.type === "message_deleted")
    keys.push([...queryKeys.allSearches]);
  // The owner's client list carries unread counts, "awaiting reply" and the activity order.
  if (side === "owner") keys.push([...queryKeys.clients]);
  return keys;
}

/**
 * The team changed (issue 26): the Team tab's people, invites, activity and seats, and who is
 * signed in, whose role (and so what the page offers them) may be what changed.
 */
function teamInvalidations(): unknown[][] {
  return [
    [...queryKeys.teamMembers],
    [...queryKeys.teamInvites],
    [...queryKeys.teamAudit],
    [...queryKeys.seats],
    [...queryKeys.user],
  ];
}

/**
 * Once connected: everything an event could have changed, since events may have been missed.
 * `again`: a reconnect, after which the staff's team may have changed too (the first connect
 * leaves it: the dashboard's first-screen answer has just seeded who is signed in and the team).
 */
export function catchUpInvalidations(side: RealtimeSide, again = false): readonly unknown[][] {
  const keys: unknown[][] = [[...queryKeys.allMessages], ["attachments"]];
  if (side === "owner") keys.push([...queryKeys.clients]);
  if (side === "owner" && again) keys.push(...teamInvalidations());
  return keys;
}

function invalidate(queryClient: QueryClient, keys: readonly unknown[][]) {
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

interface UseRealtimeOptions {
  side: RealtimeSide;
  /** Called for 4001 (access removed); the socket stays closed. */
  onEnded?: (code: number) => void;
  /**
   * Puts a new message that came with its event into its conversation; false when it could
   * not (the conversation refetches). The conversation feature's placeArrivedMessage.
   */
  placeMessage?: (queryClient: QueryClient, event: RealtimeEvent) => boolean;
  /**
   * The staff's presence (issue 26), kept from the socket's events: the dashboard passes its
   * store; the portal none (clients never send or hear presence, and its first load has no room).
   */
  presence?: PresenceStore;
}

/**
 * Keeps one /ws connection open while mounted and turns its events into query
 * invalidations; reconnects with backoff and catches up. Returns the connection's status.
 */
export function useRealtime({
  side,
  onEnded,
  placeMessage,
  presence,
}: UseRealtimeOptions): RealtimeStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<RealtimeStatus>("connecting");
  const onEndedRef = useRef(onEnded);
  onEndedRef.current = onEnded;

  useEffect(() => {
    // The owner app's connectivity model (none in the portal, which listens to the browser).
    const connectivity = installedConnectivity();
    let openedBefore = false;

    const connection = connectRealtime({
      url: websocketUrl(apiUrl(""), window.location),
      // Tries at once when the browser's network returns, or the server answers again.
      network: connectivity?.returns ?? window,
      onStatus: (next) => {
        setStatus(next);
        // Open: the server is there. A drop: the connectivity model checks whether it still is.
        if (next === "open") connectivity?.reportSocket(true);
        else if (next === "reconnecting") connectivity?.reportSocket(false);
        if (next !== "open") presence?.disconnected();
      },
      onEvent: (event) => {
        if (event.type === "presence") {
          presence?.receive(event);
          return;
        }
        invalidate(
          queryClient,
          invalidationsFor(event, side, placeMessage?.(queryClient, event) ?? false),
        );
      },
      onConnected: () => {
        invalidate(queryClient, catchUpInvalidations(side, openedBefore));
        openedBefore = true;
        // Only the staff say where they are; the server ignores a client's frames anyway.
        presence?.connected((data) => connection.send(data));
      },
      onEnded: (code) => {
        // The server says to ask who is signed in now (the access is gone).
        void queryClient.invalidateQueries({ queryKey: queryKeys.user });
        onEndedRef.current?.(code);
      },
      onConnectFailed: (failures) => {
        // A refused upgrade (e.g. the session expired) looks like any dropped connection;
        // asking who is signed in lets the page leave when nobody is (right after a 4401, the
        // first refusal is the second failure: signed out elsewhere).
        if (failures === 2 || failures % 10 === 0) {
          void queryClient.invalidateQueries({ queryKey: queryKeys.user });
        }
      },
    });
    return () => {
      connection.close();
      presence?.disconnected();
    };
  }, [queryClient, side, placeMessage, presence]);

  return status;
}
