import type { DesktopNotificationRequest } from "../common/desktop-api";

/**
 * System notifications, built in main from plain strings (checklist 11): the renderer
 * sends a title, a body and a client id, never HTML or an action. A click brings the window
 * forward and asks the renderer to open that conversation.
 */
export interface NotificationLike {
  on(event: "click" | "close", listener: () => void): unknown;
  show(): void;
}

export interface NotificationConstructor {
  new (options: { title: string; body: string; silent?: boolean }): NotificationLike;
  isSupported(): boolean;
}

export interface NotifierOptions {
  Notification: NotificationConstructor;
  /** Shows, restores and focuses the main window. */
  focusWindow: () => void;
  /** Sends open-conversation to the main window's renderer. */
  openConversation: (clientId: string) => void;
}

export interface Notifier {
  show(notification: DesktopNotificationRequest): void;
}

export function createNotifier({
  Notification,
  focusWindow,
  openConversation,
}: NotifierOptions): Notifier {
  // Electron drops a notification's click handler when the object is garbage-collected:
  // keep each one until it is clicked or closed.
  const live = new Set<NotificationLike>();
  return {
    show({ title, body, clientId }) {
      if (!Notification.isSupported()) return;
      const notification = new Notification({ title, body });
      live.add(notification);
      notification.on("click", () => {
        live.delete(notification);
        focusWindow();
        if (clientId) openConversation(clientId);
      });
      notification.on("close", () => live.delete(notification));
      notification.show();
    },
  };
}
