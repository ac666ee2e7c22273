import { APP_ORIGIN } from "../common/app-origin";
import type { ServerConfig } from "./server-config";
import { SESSION_COOKIE } from "../../shared/session-cookie";

/**
 * Main's end of every request the renderer makes to the server.
 *
 * The renderer lives at app://clientdesk, a different site from the server. Left alone,
 * Chromium would not send the server's SameSite=Lax session cookie with its calls (nor store
 * the one sign-in sets), the server would refuse the foreign Origin of every write and of
 * /ws, and it sends no CORS headers. Instead of loosening the server for the desktop app,
 * the app's session answers requests to the server's origin itself: main repeats each one
 * with the session's own cookie jar, as a same-origin request of the server, and hands the
 * answer back without its Set-Cookie headers. The renderer still calls `fetch()` as in the
 * browser (uploads included) and never sees the session secret.
 *
 * The realtime socket cannot be answered this way (protocol handlers do not see WebSocket
 * upgrades), so its handshake gets the server's own Origin and the session cookie from
 * `webRequest.onBeforeSendHeaders`.
 */

/** What forwarding needs from an Electron Session. */
export interface BridgeFetch {
  fetch(
    input: string,
    init: RequestInit & { bypassCustomProtocolHandlers?: boolean },
  ): Promise<Response>;
}

export interface BridgeSession extends BridgeFetch {
  protocol: { handle(scheme: string, handler: (request: Request) => Promise<Response>): void };
  webRequest: {
    onBeforeSendHeaders(
      filter: { urls: string[] },
      listener: (
        details: { url: string; requestHeaders: Record<string, string> },
        callback: (response: { cancel?: boolean; requestHeaders?: Record<string, string> }) => void,
      ) => void,
    ): void;
  };
  cookies: {
    get(filter: { url: string; name: string }): Promise<{ name: string; value: string }[]>;
  };
}

export interface BridgeOptions {
  server: ServerConfig;
  /** The Vite dev server's origin when the app is not packaged; null when packaged. */
  devServerOrigin: string | null;
  /** The CSP for dev-server pages (the packaged pages get it from the app:// handler). */
  csp: string;
}

/** Request headers the renderer may not decide: the network stack or main sets them. */
const DROPPED_REQUEST_HEADERS = new Set([
  "host",
  "connection",
  "content-length",
  "cookie",
  "cookie2",
  "origin",
  "referer",
  "keep-alive",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "expect",
  "proxy-authorization",
  "proxy-connection",
  // The network stack negotiates compression itself.
  "accept-encoding",
]);

/**
 * Response headers not handed on: the session cookie stays in main, and the body Chromium
 * gives main is already decoded, so its original encoding and length no longer apply.
 */
const DROPPED_RESPONSE_HEADERS = new Set([
  "set-cookie",
  "set-cookie2",
  "content-encoding",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
]);

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function jsonResponse(status: number, message: string, headers: Headers = new Headers()): Response {
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(JSON.stringify({ message }), { status, headers });
}

function forwardableRequestHeaders(source: Headers): Headers {
  const headers = new Headers();
  source.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (DROPPED_REQUEST_HEADERS.has(lower) || lower.startsWith("sec-")) return;
    headers.set(name, value);
  });
  return headers;
}

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.origin === "null" ? null : parsed.origin;
  } catch {
    return null;
  }
}

export function createServerForwarder(session: BridgeFetch, options: BridgeOptions) {
  const { server, devServerOrigin } = options;
  const appOrigins = new Set([APP_ORIGIN, server.serverUrl]);
  if (devServerOrigin) appOrigins.add(devServerOrigin);

  /** CORS answer headers for the app's own pages (the requests are cross-origin for Chromium). */
  const corsHeaders = (requestOrigin: string | null): Headers => {
    const headers = new Headers();
    headers.set("Access-Control-Allow-Origin", requestOrigin ?? APP_ORIGIN);
    headers.set("Access-Control-Allow-Credentials", "true");
    headers.append("Vary", "Origin");
    return headers;
  };

  /**
   * Sends `request` (from one of the app's pages) to `serverPath` on the server with the
   * session's cookies and the server's own Origin, and returns the answer without cookies.
   */
  return async function forward(request: Request, serverPath: string): Promise<Response> {
    const requestOrigin = request.headers.get("origin");
    if (requestOrigin !== null && !appOrigins.has(requestOrigin)) {
      return jsonResponse(403, "Request refused: not from the app");
    }
    if (!serverPath.startsWith("/")) return jsonResponse(400, "Bad request");

    if (request.method === "OPTIONS") {
      const headers = corsHeaders(requestOrigin);
      headers.set("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, PATCH, DELETE");
      const asked = request.headers.get("access-control-request-headers");
      if (asked) headers.set("Access-Control-Allow-Headers", asked);
      headers.set("Access-Control-Max-Age", "600");
      return new Response(null, { status: 204, headers });
    }

    const headers = forwardableRequestHeaders(request.headers);
    // A same-origin request of the server's own: its CSRF check and its cookies apply as
    // for its web pages. Only the app's pages run in this session (navigation is locked).
    headers.set("Origin", server.serverUrl);

    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    let answer: Response;
    try {
      answer = await session.fetch(`${server.serverUrl}${serverPath}`, {
        method: request.method,
        headers,
        body: hasBody ? await request.arrayBuffer() : undefined,
        credentials: "include",
        bypassCustomProtocolHandlers: true,
      });
    } catch {
      return jsonResponse(
        502,
        "Can't reach the ClientDesk server. Check your connection.",
        corsHeaders(requestOrigin),
      );
    }

    const responseHeaders = corsHeaders(requestOrigin);
    const exposed: string[] = [];
    answer.headers.forEach((value, name) => {
      const lower = name.toLowerCase();
      if (DROPPED_RESPONSE_HEADERS.has(lower) || lower.startsWith("access-control-")) return;
      if (lower === "vary") {
        responseHeaders.append("Vary", value);
        return;
      }
      responseHeaders.set(name, value);
      exposed.push(name);
    });
    // e.g. X-Has-More on message pages: readable by the page as on the web.
    if (exposed.length > 0)
      responseHeaders.set("Access-Control-Expose-Headers", exposed.join(", "));
    const body = NULL_BODY_STATUSES.has(answer.status) ? null : answer.body;
    return new Response(body, {
      status: answer.status,
      statusText: answer.statusText,
      headers: responseHeaders,
    });
  };
}

/**
 * The handler for http: and https: requests in the app's session: the server's origin is
 * forwarded, the dev server (unpackaged only) is passed through with the app's CSP, and
 * anything else is refused (the CSP refuses it in the page already).
 */
export function createServerInterceptor(session: BridgeFetch, options: BridgeOptions) {
  const forward = createServerForwarder(session, options);
  return async (request: Request): Promise<Response> => {
    const origin = originOf(request.url);
    if (origin === options.server.serverUrl) {
      const url = new URL(request.url);
      return forward(request, `${url.pathname}${url.search}`);
    }
    if (options.devServerOrigin && origin === options.devServerOrigin) {
      const answer = await session.fetch(request.url, {
        method: request.method,
        headers: forwardableRequestHeaders(request.headers),
        bypassCustomProtocolHandlers: true,
      });
      const headers = new Headers();
      answer.headers.forEach((value, name) => {
        if (!DROPPED_RESPONSE_HEADERS.has(name.toLowerCase())) headers.append(name, value);
      });
      if ((headers.get("content-type") ?? "").startsWith("text/html")) {
        headers.set("Content-Security-Policy", options.csp);
      }
      const body = NULL_BODY_STATUSES.has(answer.status) ? null : answer.body;
      return new Response(body, { status: answer.status, headers });
    }
    return jsonResponse(403, "Blocked: the app talks only to its server");
  };
}

/** Adds the server's Origin and the session cookie to the /ws handshake of the app's pages. */
export function createSocketHeaderListener(
  session: Pick<BridgeSession, "cookies">,
  options: BridgeOptions,
) {
  const { server, devServerOrigin } = options;
  return (
    details: { url: string; requestHeaders: Record<string, string> },
    callback: (response: { cancel?: boolean; requestHeaders?: Record<string, string> }) => void,
  ) => {
    const url = new URL(details.url);
    const socketUrl = new URL(server.websocketUrl);
    if (url.origin !== socketUrl.origin || url.pathname !== socketUrl.pathname) {
      callback({});
      return;
    }
    const headers: Record<string, string> = {};
    let origin: string | undefined;
    for (const [name, value] of Object.entries(details.requestHeaders)) {
      const lower = name.toLowerCase();
      if (lower === "origin") origin = value;
      else if (lower !== "cookie") headers[name] = value;
    }
    const fromApp =
      origin === APP_ORIGIN || (devServerOrigin !== null && origin === devServerOrigin);
    if (!fromApp) {
      callback({ cancel: true });
      return;
    }
    headers.Origin = server.serverUrl;
    session.cookies
      .get({ url: server.serverUrl, name: SESSION_COOKIE })
      .then((cookies) => {
        const cookie = cookies[0];
        if (cookie) headers.Cookie = `${SESSION_COOKIE}=${cookie.value}`;
        callback({ requestHeaders: headers });
      })
      .catch(() => callback({ requestHeaders: headers }));
  };
}

/** Installs the bridge on the app's session (after the app is ready). */
export function installServerBridge(session: BridgeSession, options: BridgeOptions): void {
  const interceptor = createServerInterceptor(session, options);
  session.protocol.handle("http", interceptor);
  session.protocol.handle("https", interceptor);
  const socketUrl = new URL(options.server.websocketUrl);
  session.webRequest.onBeforeSendHeaders(
    { urls: [`${socketUrl.protocol}//${socketUrl.host}${socketUrl.pathname}*`] },
    createSocketHeaderListener(session, options),
  );
}
