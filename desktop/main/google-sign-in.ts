import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { BridgeFetch } from "./server-bridge";

/**
 * Google sign-in for the desktop app as RFC 8252 asks of native apps: Google's page opens in
 * the system browser (never in the app's window), and comes back to a loopback listener on
 * 127.0.0.1 (§7.3) with a one-time code from our server. Only this process knows the PKCE
 * verifier (RFC 7636) that redeems the code, so whatever else sees the code (the browser's
 * history, another program on this machine) cannot sign in with it. The redemption goes
 * through the app's session, so the server's `sid` cookie lands in its jar, and from there in
 * the secure store (session-cookie.ts).
 */

export type GoogleSignInResult =
  | { outcome: "signed-in" }
  | { outcome: "cancelled" }
  | { outcome: "failed"; reason: "google" | "timeout" | "exchange" | "browser" };

export interface GoogleSignInOptions {
  /** The server's origin (CLIENTDESK_SERVER_URL). */
  serverUrl: string;
  /** The app's session: the exchange's Set-Cookie must land in its cookie jar. */
  session: BridgeFetch;
  /** Opens a URL in the system browser (shell.openExternal). */
  openBrowser(url: string): Promise<void>;
  /** How long the browser may take, Google included; 5 minutes by default. */
  timeoutMs?: number;
  log?: (message: string) => void;
}

export interface GoogleSignIn {
  /** Runs one sign-in to its end; a second start cancels the first. */
  start(): Promise<GoogleSignInResult>;
  /** Ends the running sign-in, if any (its start() resolves "cancelled"). */
  cancel(): void;
}

const DEFAULT_TIMEOUT_MS = 5 * 60 * 1000;
const LOOPBACK_HOST = "127.0.0.1";
/** Once the code is in, neither Cancel nor the timeout ends the sign-in: this does. */
const EXCHANGE_TIMEOUT_MS = 30 * 1000;

const randomToken = () => randomBytes(32).toString("base64url");

/** Compares in constant time, over hashes so that lengths may differ. */
function sameToken(a: string, b: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** The page the browser shows at the end: self-contained, nothing loaded from anywhere. */
function browserPage(title: string, text: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ClientDesk</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f6f7f9;color:#1f2937;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:28rem;margin:1.5rem;padding:2rem;background:#fff;border:1px solid #e5e7eb;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.06);text-align:center}
h1{margin:0 0 .5rem;font-size:1.25rem}
p{margin:0;color:#4b5563}
</style></head>
<body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;
}

const PAGES = {
  signedIn: browserPage(
    "You're signed in to ClientDesk",
    "You can close this tab and return to the app.",
  ),
  failed: browserPage("Google sign-in failed", "Return to ClientDesk and try again."),
  cancelled: browserPage("Sign-in cancelled", "Nothing was signed in. You can close this tab."),
  stale: browserPage(
    "This sign-in link has expired",
    "Return to ClientDesk and start the sign-in again.",
  ),
  notFound: browserPage("Not found", "There is nothing here."),
};

/** Resolves once the page is sent, or once the browser went away (a tab closed meanwhile). */
function answer(response: http.ServerResponse, status: number, page: string): Promise<void> {
  return new Promise((resolve) => {
    response.once("close", () => resolve());
    response.writeHead(status, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "X-Content-Type-Options": "nosniff",
      Connection: "close",
    });
    response.end(page, () => resolve());
  });
}

export function createGoogleSignIn(options: GoogleSignInOptions): GoogleSignIn {
  const { serverUrl, session } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const log = options.log ?? (() => {});
  let current: { stop(result: GoogleSignInResult): void } | null = null;

  /** Redeems the loopback's code with the verifier, in the app's session. */
  async function exchange(code: string, codeVerifier: string): Promise<boolean> {
    try {
      const response = await session.fetch(`${serverUrl}/api/auth/desktop/exchange`, {
        method: "POST",
        // The server refuses writes from foreign origins; this is the app itself, as the
        // server bridge's calls are.
        headers: { "Content-Type": "application/json", Origin: serverUrl },
        body: JSON.stringify({ code, codeVerifier }),
        credentials: "include",
        bypassCustomProtocolHandlers: true,
        signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
      });
      if (!response.ok) log(`Google sign-in: the server refused the code (${response.status})`);
      await response.body?.cancel();
      return response.ok;
    } catch (error) {
      log(`Google sign-in: cannot reach the server (${String(error)})`);
      return false;
    }
  }

  async function start(): Promise<GoogleSignInResult> {
    current?.stop({ outcome: "cancelled" });
    const verifier = randomToken();
    const state = randomToken();
    const challenge = createHash("sha256").update(verifier).digest("base64url");

    let settle: (result: GoogleSignInResult) => void = () => {};
    const result = new Promise<GoogleSignInResult>((resolve) => {
      settle = resolve;
    });
    let finished = false;
    /** Set once the one callback with the right state has arrived. */
    let claimed = false;
    let timer: NodeJS.Timeout | undefined;

    const loopback = http.createServer((request, response) => {
      const url = new URL(request.url ?? "/", `http://${LOOPBACK_HOST}`);
      if (request.method !== "GET" || url.pathname !== "/callback") {
        void answer(response, 404, PAGES.notFound);
        return;
      }
      const given = url.searchParams.get("state") ?? "";
      if (finished || claimed || !sameToken(given, state)) {
        // Not this sign-in's answer (an old tab, another program): the sign-in goes on.
        void answer(response, 400, PAGES.stale);
        return;
      }
      claimed = true;
      const code = url.searchParams.get("code");
      if (!code && url.searchParams.get("error") === "cancelled") {
        // The user pressed Cancel on the server's "Sign in to the ClientDesk app?" page.
        void answer(response, 200, PAGES.cancelled).then(() =>
          attempt.finish({ outcome: "cancelled" }),
        );
        return;
      }
      void (async () => {
        const signedIn = code !== null && (await exchange(code, verifier));
        if (!code) log(`Google sign-in failed in the browser (${url.searchParams.get("error")})`);
        await answer(response, signedIn ? 200 : 400, signedIn ? PAGES.signedIn : PAGES.failed);
        attempt.finish(
          signedIn
            ? { outcome: "signed-in" }
            : { outcome: "failed", reason: code ? "exchange" : "google" },
        );
      })();
    });

    const attempt = {
      /** Cancel and timeout: once the callback is in, its exchange (a moment) decides. */
      stop(outcome: GoogleSignInResult) {
        if (!claimed) attempt.finish(outcome);
      },
      finish(outcome: GoogleSignInResult) {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        if (current === attempt) current = null;
        loopback.close();
        loopback.closeAllConnections();
        settle(outcome);
      },
    };
    current = attempt;

    try {
      // Port 0: the OS picks a free one (RFC 8252 §7.3); 127.0.0.1 only, not every interface.
      await new Promise<void>((resolve, reject) => {
        loopback.once("error", reject);
        loopback.listen(0, LOOPBACK_HOST, () => resolve());
      });
    } catch (error) {
      log(`Google sign-in: no loopback port (${String(error)})`);
      attempt.finish({ outcome: "failed", reason: "browser" });
      return result;
    }
    if (finished) return result;
    const { port } = loopback.address() as AddressInfo;
    timer = setTimeout(() => attempt.stop({ outcome: "failed", reason: "timeout" }), timeoutMs);

    const query = new URLSearchParams({ code_challenge: challenge, state, port: String(port) });
    options.openBrowser(`${serverUrl}/auth/google/desktop?${query}`).catch((error: unknown) => {
      log(`Google sign-in: could not open the browser (${String(error)})`);
      attempt.finish({ outcome: "failed", reason: "browser" });
    });
    return result;
  }

  return {
    start,
    cancel() {
      current?.stop({ outcome: "cancelled" });
    },
  };
}
