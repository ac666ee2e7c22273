import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { queryKeys } from "../../web/src/api/query-keys";
import type { DesktopApi } from "../common/desktop-api";
import type { DesktopPlatform } from "./desktop-platform";
import {
  type ClientUnread,
  conversationPath,
  newlyUnread,
  notificationBody,
  unreadSnapshot,
  unreadTotal,
} from "./unread";

function isClientList(data: unknown): data is ClientUnread[] {
  return (
    Array.isArray(data) &&
    data.every(
      (item) =>
        item &&
        typeof item === "object" &&
        typeof item.id === "string" &&
        typeof item.name === "string" &&
        typeof item.unreadCount === "number",
    )
  );
}

/**
 * Moves the router to a conversation from outside it: the owner app's BrowserRouter follows
 * history changes announced with popstate.
 */
function openConversation(clientId: string): void {
  const target = conversationPath(clientId);
  if (`${window.location.pathname}${window.location.search}` !== target) {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    window.history.pushState(
      { usr: null, key: Math.random().toString(36).slice(2, 10), idx: index + 1 },
      "",
      target,
    );
    window.dispatchEvent(new PopStateEvent("popstate", { state: window.history.state }));
  }
}

/**
 * The desktop-only glue, mounted inside the owner app's providers: keeps the tray/badge
 * unread count, notifies about new messages while the window is not in front, and opens a
 * conversation when main asks (a notification was clicked).
 */
export function DesktopBridge({ api, platform }: { api: DesktopApi; platform: DesktopPlatform }) {
  const queryClient = useQueryClient();

  useEffect(() => {
    let previous: Map<string, number> | null = null;
    let sentTotal = -1;
    const sendTotal = (total: number) => {
      if (total === sentTotal) return;
      sentTotal = total;
      api.setUnreadCount(total).catch(() => {});
    };
    const isClientsKey = (key: readonly unknown[]) =>
      key.length === queryKeys.clients.length && key[0] === queryKeys.clients[0];

    const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
      if (!isClientsKey(event.query.queryKey)) return;
      if (event.type === "removed") {
        previous = null;
        sendTotal(0);
        return;
      }
      if (event.type !== "updated") return;
      const data: unknown = event.query.state.data;
      if (!isClientList(data)) return;
      sendTotal(unreadTotal(data));
      const away = document.hidden || !document.hasFocus();
      if (away) {
        for (const client of newlyUnread(previous, data)) {
          platform.notify({
            title: client.name,
            body: notificationBody(client.unreadCount),
            clientId: client.id,
          });
        }
      }
      previous = unreadSnapshot(data);
    });
    return unsubscribe;
  }, [api, platform, queryClient]);

  useEffect(
    () =>
      api.onOpenConversation((clientId) => {
        openConversation(clientId);
        platform.runNotificationClick(clientId);
      }),
    [api, platform],
  );

  return null;
}
