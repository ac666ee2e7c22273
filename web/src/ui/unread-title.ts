import { useEffect } from "react";

/** The product's name: the tab title of every page (web/index.html, web/client.html). */
export const APP_TITLE = "ClientDesk";

/** "(3) ClientDesk" while messages wait unread, plain "ClientDesk" at none. */
export function unreadTitle(unread: number): string {
  return unread > 0 ? `(${unread}) ${APP_TITLE}` : APP_TITLE;
}

/**
 * Puts the unread count in the browser tab's title, so a background tab shows that someone
 * wrote. `undefined` (the count is still loading) leaves the title as it is; leaving the page
 * puts the plain title back.
 */
export function useUnreadTitle(unread: number | undefined): void {
  useEffect(() => {
    if (unread !== undefined) document.title = unreadTitle(unread);
  }, [unread]);
  useEffect(
    () => () => {
      document.title = APP_TITLE;
    },
    [],
  );
}
