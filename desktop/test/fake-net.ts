/**
 * Electron's `net` for tests, over Node's http/https: electron-updater's HttpExecutor drives
 * both the same way (response, error and socket events, end, abort). Electron reports a
 * redirect as an event; Node answers with the 3xx response, which the executor also follows.
 * With `useSessionCookies` or `credentials: "include"`, the request uses the fake session's
 * cookie jar as Chromium would: its cookies for the host are sent, and Set-Cookie is stored.
 */
import http from "node:http";
import https from "node:https";
import type { FakeCookies } from "./fake-electron";

export interface NetRequestOptions extends https.RequestOptions {
  /** Electron's own options; Node has no use for them. */
  url?: string;
  session?: unknown;
  redirect?: string;
  useSessionCookies?: boolean;
  credentials?: string;
  origin?: string;
  bypassCustomProtocolHandlers?: boolean;
}

/** The expiry Set-Cookie gives (seconds since the epoch), or null for a session cookie. */
function expiryOf(attributes: string[]): number | null {
  for (const attribute of attributes) {
    const [key = "", value = ""] = attribute.split("=").map((part) => part.trim());
    if (key.toLowerCase() === "max-age") return Date.now() / 1000 + Number(value);
    if (key.toLowerCase() === "expires") return Date.parse(value) / 1000;
  }
  return null;
}

function storeSetCookies(cookies: FakeCookies, host: string, headers: string[] | undefined) {
  for (const header of headers ?? []) {
    const [pair = "", ...attributes] = header.split(";");
    const at = pair.indexOf("=");
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    const expires = expiryOf(attributes);
    if (expires !== null && expires * 1000 <= Date.now()) cookies.serverClears(name);
    else cookies.serverSets(name, value, host, expires ?? undefined);
  }
}

export function createFakeNet() {
  const requests: string[] = [];
  return {
    /** Every URL requested, in order. */
    requests,
    request({
      url,
      session,
      redirect: _redirect,
      useSessionCookies,
      credentials,
      origin: _origin,
      bypassCustomProtocolHandlers,
      ...options
    }: NetRequestOptions) {
      if (url) {
        const target = new URL(url);
        Object.assign(options, {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          path: `${target.pathname}${target.search}`,
        });
      }
      const port = options.port ? `:${options.port}` : "";
      requests.push(`${options.protocol}//${options.hostname}${port}${options.path ?? "/"}`);
      // As in Electron, a session's own http(s) handlers (the server bridge) would take the
      // request unless it bypasses them; the fake has no such routing, so it refuses.
      const handlers = (session as { protocolHandlers?: Map<string, unknown> } | undefined)
        ?.protocolHandlers;
      const scheme = (options.protocol ?? "http:").replace(":", "");
      if (handlers?.has(scheme) && !bypassCustomProtocolHandlers) {
        throw new Error(`net.request to ${scheme} would go through the session's own handler`);
      }
      const jar = (session as { cookies?: FakeCookies } | undefined)?.cookies;
      const withCookies = jar && (credentials === "include" || useSessionCookies);
      const host = options.hostname ?? "";
      if (withCookies) {
        const cookie = [...jar.jar.values()]
          .filter((candidate) => candidate.domain === host)
          .map((candidate) => `${candidate.name}=${candidate.value}`)
          .join("; ");
        if (cookie) options.headers = { ...options.headers, Cookie: cookie };
      }
      const request = (options.protocol === "https:" ? https : http).request(options);
      request.on("response", (response) => {
        if (withCookies) storeSetCookies(jar, host, response.headers["set-cookie"]);
      });
      // Electron's abort(); Node's is deprecated in favour of destroy().
      request.abort = () => request.destroy();
      return request;
    },
  };
}
