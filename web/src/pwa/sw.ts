/**
 * The service worker (served as /sw.js, scope /; scripts/build.mjs builds it after the
 * pages): the app shell offline and web push.
 *
 * - Pages: network first, so a deploy is seen at once; offline, the shell of their side (portal
 *   or dashboard). Their HTML is the same for everyone and every address (the data comes from
 *   /api/), so keeping it is safe.
 * - /assets/ (hashed, immutable), icons and manifests: from the cache once fetched.
 * - /api/, /ws and everything else: never cached; conversations are not kept on the device.
 * - A push shows a notification (sender, first 100 characters); a tap focuses the window that
 *   shows that conversation, or opens it.
 */

// The service worker's own types (lib "webworker" cannot be combined with "DOM" in one program).
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  /** With navigation preload on: the page's request, started while the worker was booting. */
  preloadResponse: Promise<Response | undefined>;
  respondWith(response: Promise<Response>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown } | null;
}
interface NotificationEvent extends ExtendableEvent {
  notification: Notification;
}
interface PushSubscriptionChangeEvent extends ExtendableEvent {
  oldSubscription: PushSubscription | null;
  newSubscription: PushSubscription | null;
}
interface WindowClient {
  url: string;
  focused: boolean;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface ServiceWorkerScope {
  location: Location;
  registration: ServiceWorkerRegistration;
  clients: {
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
  addEventListener(type: "push", listener: (event: PushEvent) => void): void;
  addEventListener(type: "notificationclick", listener: (event: NotificationEvent) => void): void;
  addEventListener(
    type: "pushsubscriptionchange",
    listener: (event: PushSubscriptionChangeEvent) => void,
  ): void;
}

declare const BUILD_ID: string;
const worker = self as unknown as ServiceWorkerScope;

const CACHE = `clientdesk-shell-${BUILD_ID}`;
/** The two shells: what an offline navigation falls back to. */
const PORTAL_SHELL = "/client";
const DASHBOARD_SHELL = "/";
const STATIC = /^\/(assets|icons)\/|^\/(favicon\.svg|manifest\.webmanifest|client\.webmanifest)$/;

const isPortalPath = (path: string) => /^\/(client|invite)(\/|$)/.test(path);

/** A shell and every script and style its HTML names (the first load works offline). */
async function cacheShell(cache: Cache, shell: string): Promise<void> {
  const response = await fetch(shell, { cache: "no-cache" });
  if (!response.ok) return;
  const html = await response.clone().text();
  await cache.put(shell, response);
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
  await cache.addAll([...new Set(assets)]);
}

worker.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await Promise.all([cacheShell(cache, PORTAL_SHELL), cacheShell(cache, DASHBOARD_SHELL)]);
      await worker.skipWaiting();
    })(),
  );
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys())
        if (name.startsWith("clientdesk-shell-") && name !== CACHE) await caches.delete(name);
      // A page's request starts at once, not after the worker has started (phones: tens of ms).
      await worker.registration.navigationPreload?.enable();
      await worker.clients.claim();
    })(),
  );
});

/**
 * The page's answer as its side's shell: the same body and headers (its CSP included), less
 * the Link header, which preloads the data of the page's own address (a portal conversation).
 */
async function asShell(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.delete("Link");
  return new Response(await response.clone().blob(), { status: response.status, headers });
}

/**
 * A page: from the network, keeping the answer as its side's shell (every portal page is the
 * same client.html, every dashboard page index.html), so nothing of the address (an invite
 * token, say) is stored; offline, that shell.
 */
async function fromNetworkFirst(
  request: Request,
  path: string,
  preloaded: Promise<Response | undefined>,
): Promise<Response> {
  const cache = await caches.open(CACHE);
  const shell = isPortalPath(path) ? PORTAL_SHELL : DASHBOARD_SHELL;
  try {
    const response = (await preloaded) ?? (await fetch(request));
    const html = response.headers.get("Content-Type")?.startsWith("text/html");
    if (response.ok && html) await cache.put(shell, await asShell(response));
    return response;
  } catch (error) {
    const kept = await cache.match(shell);
    if (kept) return kept;
    throw error;
  }
}

async function fromCacheFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

worker.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (request.mode === "navigate") {
    // Server-made pages (dev mailbox, Google sign-in, test checkout) stay as they are.
    if (/^\/(api|dev|billing|healthz|readyz|metrics)(\/|$)|^\/auth\/google/.test(url.pathname))
      return;
    event.respondWith(fromNetworkFirst(request, url.pathname, event.preloadResponse));
  } else if (STATIC.test(url.pathname)) {
    event.respondWith(fromCacheFirst(request));
  }
});

interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}

worker.addEventListener("push", (event) => {
  let payload: PushPayload;
  try {
    payload = event.data?.json() as PushPayload;
  } catch {
    return;
  }
  if (!payload?.title) return;
  event.waitUntil(
    worker.registration.showNotification(payload.title, {
      body: payload.body,
      icon: "/icons/icon-192.png",
      badge: "/icons/badge-96.png",
      tag: payload.tag,
      // A newer message of the same conversation replaces the notification and still alerts.
      renotify: true,
      data: { url: payload.url },
    } as NotificationOptions),
  );
});

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: string } | null;
  const target = new URL(data?.url ?? "/", worker.location.origin);
  // Only this app's own pages.
  if (target.origin !== worker.location.origin) return;
  event.waitUntil(
    (async () => {
      const windows = await worker.clients.matchAll({ type: "window", includeUncontrolled: true });
      const same = windows.find((client) => client.url === target.href);
      if (same) {
        await same.focus();
        return;
      }
      // A window of the same side (portal or dashboard) goes to the conversation.
      const side = windows.find(
        (client) => isPortalPath(new URL(client.url).pathname) === isPortalPath(target.pathname),
      );
      if (side) {
        const moved = await side.navigate(target.href).catch(() => null);
        if (moved) {
          await moved.focus();
          return;
        }
      }
      await worker.clients.openWindow(target.href);
    })(),
  );
});

/** The push service renewed the subscription: tell the server (the session cookie goes along). */
worker.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil(
    (async () => {
      const renewed =
        event.newSubscription ??
        (event.oldSubscription
          ? await worker.registration.pushManager.subscribe({
              userVisibleOnly: true,
              applicationServerKey: event.oldSubscription.options.applicationServerKey,
            })
          : null);
      if (!renewed) return;
      await fetch("/api/push/subscriptions", {
        method: "POST",
        credentials: "include",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(renewed.toJSON()),
      });
    })(),
  );
});
