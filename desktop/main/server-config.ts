import { z } from "zod";

/** The server the desktop app talks to when CLIENTDESK_SERVER_URL is not set. */
export const DEFAULT_SERVER_URL = "http://localhost:3000";

export interface ServerConfig {
  /** The server's origin, e.g. "https://desk.example.com" (no trailing slash). */
  serverUrl: string;
  /** "http:" or "https:". */
  scheme: "http" | "https";
  /** The realtime socket, e.g. "wss://desk.example.com/ws". */
  websocketUrl: string;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

const serverUrlSchema = z
  .string()
  .trim()
  .transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: `not a URL: "${value}"` });
      return z.NEVER;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      ctx.addIssue({
        code: "custom",
        message: `must be http:// or https://, got "${url.protocol}"`,
      });
      return z.NEVER;
    }
    if (url.username || url.password) {
      ctx.addIssue({ code: "custom", message: "must not contain a user name or password" });
      return z.NEVER;
    }
    if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash) {
      ctx.addIssue({ code: "custom", message: "must be an origin only (no path, query or #)" });
      return z.NEVER;
    }
    // Cookies and messages must not cross the network in clear text; a local server may.
    if (url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)) {
      ctx.addIssue({
        code: "custom",
        message: "must use https:// unless the server runs on this machine",
      });
      return z.NEVER;
    }
    return url;
  });

export class ServerConfigError extends Error {
  override name = "ServerConfigError";
}

/** Reads CLIENTDESK_SERVER_URL (default http://localhost:3000); a wrong value throws one clear line. */
export function loadServerConfig(env: Record<string, string | undefined>): ServerConfig {
  const raw = env.CLIENTDESK_SERVER_URL?.trim() || DEFAULT_SERVER_URL;
  const parsed = serverUrlSchema.safeParse(raw);
  if (!parsed.success) {
    const reason = parsed.error.issues[0]?.message ?? "invalid";
    throw new ServerConfigError(`CLIENTDESK_SERVER_URL ${reason}`);
  }
  const url = parsed.data;
  const scheme = url.protocol === "https:" ? "https" : "http";
  return {
    serverUrl: url.origin,
    scheme,
    websocketUrl: `${scheme === "https" ? "wss" : "ws"}://${url.host}/ws`,
  };
}
