import { z } from "zod";
import { SESSION_COOKIE } from "../../shared/session-cookie";
import type { SecureStore } from "./secure-store";
import type { ServerConfig } from "./server-config";

/**
 * Keeps the server's session across restarts in the secure store instead of Chromium's
 * cookie database. The app's session partition is in memory (nothing of it reaches disk);
 * sign-in happens through the server's normal API, the server's `sid` cookie lands in that
 * in-memory jar, main sees it change and stores it encrypted; at start main puts it back.
 */
export interface CookieLike {
  name: string;
  value: string;
  domain?: string;
  path?: string;
  expirationDate?: number;
}

export type CookieChangeCause =
  | "explicit"
  | "overwrite"
  | "expired"
  | "evicted"
  | "expired-overwrite";

/** Electron's cookies "changed" event. */
export type CookieChangeListener = (
  event: unknown,
  cookie: CookieLike,
  cause: CookieChangeCause,
  removed: boolean,
) => void;

export interface CookieJar {
  set(details: {
    url: string;
    name: string;
    value: string;
    path: string;
    httpOnly: boolean;
    secure: boolean;
    sameSite: "lax";
  }): Promise<void>;
  on(event: "changed", listener: CookieChangeListener): unknown;
  off(event: "changed", listener: CookieChangeListener): unknown;
}

const storedSessionSchema = z.object({
  value: z.string().min(1).max(100),
  /** Seconds since the epoch, as Chromium reports it; absent for a session cookie. */
  expires: z.number().optional(),
});

export interface SessionKeeperOptions {
  cookies: CookieJar;
  store: SecureStore;
  server: Pick<ServerConfig, "serverUrl" | "scheme">;
  now?: () => number;
  log?: (message: string) => void;
}

export interface SessionKeeper {
  /** Puts the stored session back into the cookie jar (before the window loads). */
  restore(): Promise<void>;
  /** Follows the jar: a new or renewed `sid` is stored, a removed one is deleted. */
  watch(): () => void;
}

export function createSessionKeeper(options: SessionKeeperOptions): SessionKeeper {
  const { cookies, store, server } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const host = new URL(server.serverUrl).hostname;
  let lastStored: string | null = null;
  let warned = false;
  /** Writes and deletes one after another, in the order the jar changed. */
  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = (task: () => Promise<unknown>) => {
    queue = queue.then(task).catch((error: unknown) => {
      log(`session store: ${error instanceof Error ? error.message : String(error)}`);
    });
  };

  const isSessionCookie = (cookie: CookieLike) =>
    cookie.name === SESSION_COOKIE &&
    (cookie.domain === undefined || cookie.domain.replace(/^\./, "") === host) &&
    (cookie.path === undefined || cookie.path === "/");

  const listener: CookieChangeListener = (_event, cookie, cause, removed) => {
    if (!isSessionCookie(cookie)) return;
    if (removed) {
      // An overwrite removes the old cookie just before adding the new one.
      if (cause === "overwrite") return;
      lastStored = null;
      enqueue(() => store.clear());
      return;
    }
    const serialized = JSON.stringify({ value: cookie.value, expires: cookie.expirationDate });
    if (serialized === lastStored) return;
    lastStored = serialized;
    enqueue(async () => {
      const result = await store.save(serialized);
      if (!result.stored && !warned) {
        warned = true;
        log(
          `session kept in memory only (${result.reason}): no OS keychain to protect it, so it is not written to disk`,
        );
      }
    });
  };

  return {
    async restore() {
      const saved = await store.load();
      if (!saved) return;
      let parsed: z.infer<typeof storedSessionSchema>;
      try {
        parsed = storedSessionSchema.parse(JSON.parse(saved));
      } catch {
        await store.clear();
        return;
      }
      if (parsed.expires !== undefined && parsed.expires * 1000 <= now()) {
        await store.clear();
        return;
      }
      // The jar reports the restored cookie as a change: nothing new to store.
      lastStored = JSON.stringify({ value: parsed.value, expires: undefined });
      // No expiry: a session cookie of an in-memory jar. The server renews its own expiry.
      await cookies.set({
        url: server.serverUrl,
        name: SESSION_COOKIE,
        value: parsed.value,
        path: "/",
        httpOnly: true,
        secure: server.scheme === "https",
        sameSite: "lax",
      });
    },

    watch() {
      cookies.on("changed", listener);
      return () => {
        cookies.off("changed", listener);
      };
    },
  };
}
