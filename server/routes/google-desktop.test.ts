import { createHash, randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type MutableToken, OAuth2Server } from "oauth2-mock-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSystemBrowser } from "../../desktop/test/system-browser";
import type { TestClock } from "../../tests/support/clock";
import { AgentFromIp, freshIp } from "../../tests/support/conversations";
import { uniqueEmail } from "../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../tests/support/server";
import { User } from "../models";
import { confirmationPage } from "../pages/desktop-sign-in-page";
import { LIMITS } from "../security/rate-limiter";

const CLIENT_ID = "clientdesk-test.apps.googleusercontent.com";
const CONFIRM_PATH = "/auth/google/desktop/confirm";
const CANCEL_PATH = "/auth/google/desktop/cancel";
/** Form posts to this server, and (browsers check redirects too) to the app's loopback. */
const confirmCsp = (port: number) =>
  `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://127.0.0.1:${port}; frame-ancestors 'none'; base-uri 'none'`;

/** A real listener where the app's loopback would be: what reaches it is what an app would get. */
let loopbackServer: http.Server;
let LOOPBACK_PORT: number;
const loopbackHits: string[] = [];

let oauth: OAuth2Server;
let server: TestServer;
let tokenClaims: Record<string, unknown> = {};
const logLines: string[] = [];

beforeAll(async () => {
  loopbackServer = http.createServer((request, response) => {
    loopbackHits.push(request.url ?? "");
    response.end("app");
  });
  await new Promise<void>((resolve) => loopbackServer.listen(0, "127.0.0.1", resolve));
  LOOPBACK_PORT = (loopbackServer.address() as AddressInfo).port;
  oauth = new OAuth2Server();
  await oauth.issuer.keys.generate("RS256");
  await oauth.start(0, "127.0.0.1");
  oauth.service.on("beforeTokenSigning", (token: MutableToken) => {
    Object.assign(token.payload, tokenClaims);
  });
  server = await startTestServer({
    env: {
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: "test-google-client-secret",
      GOOGLE_ISSUER: oauth.issuer.url!,
      LOG_LEVEL: "debug",
      // Rate-limit tests come from an address of their own (X-Forwarded-For).
      TRUST_PROXY: "true",
    },
    logDestination: { write: (line) => logLines.push(line) },
  });
});
afterAll(async () => {
  await server?.close();
  await oauth?.stop();
  loopbackServer?.close();
});
afterEach(() => {
  tokenClaims = {};
  loopbackHits.length = 0;
});

function googleAccount() {
  return {
    sub: `google-${randomUUID()}`,
    email: uniqueEmail("desktop"),
    email_verified: true,
    name: "Dana Desktop",
  };
}

/** What the desktop app makes before opening the system browser. */
function appSecrets() {
  const verifier = randomBytes(32).toString("base64url");
  return {
    verifier,
    challenge: createHash("sha256").update(verifier).digest("base64url"),
    state: randomBytes(16).toString("base64url"),
  };
}

const location = (response: { headers: Headers }) => response.headers.get("location") ?? "";

function startPath(query: Record<string, string>) {
  return `/auth/google/desktop?${new URLSearchParams(query)}`;
}

/**
 * The system browser's part: start, Google (the mock), the callback; where the callback sends
 * it (the confirmation page, or the loopback for an error).
 */
async function browserPart(browser: TestAgent, secrets: ReturnType<typeof appSecrets>) {
  const start = await browser.get(
    startPath({
      code_challenge: secrets.challenge,
      state: secrets.state,
      port: String(LOOPBACK_PORT),
    }),
  );
  expect(start.status).toBe(302);
  const authorize = new URL(location(start));
  expect(`${authorize.origin}${authorize.pathname}`).toBe(`${oauth.issuer.url}/authorize`);
  // Google sees the server's own callback and the server's own PKCE, not the app's.
  expect(authorize.searchParams.get("redirect_uri")).toBe(`${server.url}/auth/google/callback`);
  expect(authorize.searchParams.get("code_challenge")).not.toBe(secrets.challenge);
  // The user picks the account: Google does not pass a signed-in one on silently.
  expect(authorize.searchParams.get("prompt")).toBe("select_account");
  const authorized = await fetch(authorize, { redirect: "manual" });
  const callback = new URL(location(authorized));
  const answer = await browser.get(`${callback.pathname}${callback.search}`);
  expect([302, 303]).toContain(answer.status);
  return new URL(location(answer), server.url);
}

/** Up to the confirmation page: the user is known, nothing is handed on yet. */
async function untilConfirmation(secrets = appSecrets(), account = googleAccount()) {
  tokenClaims = account;
  const browser = server.agent();
  const next = await browserPart(browser, secrets);
  expect(next.href).toBe(`${server.url}${CONFIRM_PATH}`);
  return { browser, secrets, account };
}

/** The whole browser part, the user pressing Continue: the code on its way to the loopback. */
async function handOff(secrets = appSecrets(), account = googleAccount()) {
  const { browser } = await untilConfirmation(secrets, account);
  const confirmed = await browser.post(CONFIRM_PATH);
  expect(confirmed.status).toBe(303);
  const loopback = new URL(location(confirmed));
  return { browser, loopback, secrets, account, code: loopback.searchParams.get("code") ?? "" };
}

/** The codes stored for the account (hashes): what a Continue issued. */
async function codesOf(email: string) {
  const user = await User.query().findOne({ email });
  return user ? server.db("desktop_sign_in_codes").where({ userId: user.id }) : [];
}

const exchange = (app: TestAgent, code: string, codeVerifier: string) =>
  app.post("/api/auth/desktop/exchange", { code, codeVerifier });

describe("Google sign-in started by the desktop app", () => {
  it("hands a one-time code to the app's loopback, and the app's verifier signs the app in", async () => {
    const { browser, loopback, secrets, account, code } = await handOff();
    expect(`${loopback.origin}${loopback.pathname}`).toBe(
      `http://127.0.0.1:${LOOPBACK_PORT}/callback`,
    );
    expect(loopback.searchParams.get("state")).toBe(secrets.state);
    expect(code).toMatch(/^[\w-]{43}$/);

    // The browser that did the Google part is not signed in.
    expect(browser.cookieHeader).not.toMatch(/sid=/);
    expect((await browser.get("/api/user")).status).toBe(401);

    const app = server.agent();
    const signedIn = await exchange(app, code, secrets.verifier);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({
      email: account.email,
      fullName: "Dana Desktop",
      role: "owner",
    });
    const me = await app.get("/api/user");
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(account.email);
    expect((await User.query().findById(me.body.id))?.googleSubject).toBe(account.sub);

    // The code is spent.
    const again = await exchange(server.agent(), code, secrets.verifier);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: expect.stringMatching(/expired or was already used/) });

    // Neither the code nor the verifier is ever logged.
    const logs = logLines.join("");
    expect(logs).toContain("signed in with Google in the desktop app");
    expect(logs).not.toContain(code);
    expect(logs).not.toContain(secrets.verifier);
  });

  it("refuses a wrong verifier, and the code still works with the right one", async () => {
    const { code, secrets } = await handOff();
    const thief = server.agent();
    const thiefVerifier = appSecrets().verifier;
    const wrong = await exchange(thief, code, thiefVerifier);
    expect(wrong.status).toBe(400);
    expect(wrong.headers.getSetCookie()).toEqual([]);
    expect((await thief.get("/api/user")).status).toBe(401);
    expect((await exchange(server.agent(), code, secrets.verifier)).status).toBe(200);
    const spent = await exchange(server.agent(), code, secrets.verifier);
    expect(spent.status).toBe(400);

    // The failures are logged without the code or either verifier.
    const logs = logLines.join("");
    expect(logs).toContain('"status":400');
    for (const secret of [code, secrets.verifier, thiefVerifier])
      expect(logs).not.toContain(secret);
  });

  it("refuses a code older than two minutes", async () => {
    const { code, secrets } = await handOff();
    (server.clock as TestClock).advance(2 * 60_000 + 1000);
    const late = await exchange(server.agent(), code, secrets.verifier);
    expect(late.status).toBe(400);
  });

  it("refuses a made-up code and malformed input", async () => {
    const app = server.agent();
    const { verifier } = appSecrets();
    expect((await exchange(app, randomBytes(32).toString("base64url"), verifier)).status).toBe(400);
    expect((await exchange(app, "short", verifier)).status).toBe(400);
    expect((await exchange(app, randomBytes(32).toString("base64url"), "too-short")).status).toBe(
      400,
    );
    expect((await app.post("/api/auth/desktop/exchange", { code: "x" })).status).toBe(400);
  });

  it("refuses a start with a bad challenge, state or port, without going to Google", async () => {
    const { challenge, state } = appSecrets();
    const good = { code_challenge: challenge, state, port: String(LOOPBACK_PORT) };
    const bad = [
      { ...good, code_challenge: "plain-challenge" },
      { ...good, state: "x" },
      { ...good, port: "80" },
      { ...good, port: "70000" },
      { ...good, port: "http://evil.example" },
      { code_challenge: challenge, state },
    ];
    for (const query of bad) {
      const answer = await server.agent().get(startPath(query));
      expect(answer.status).toBe(400);
      expect(answer.headers.getSetCookie()).toEqual([]);
    }
  });

  it("sends a refused Google answer to the app's loopback as an error", async () => {
    tokenClaims = { ...googleAccount(), email_verified: false };
    const secrets = appSecrets();
    const loopback = await browserPart(server.agent(), secrets);
    expect(`${loopback.origin}${loopback.pathname}`).toBe(
      `http://127.0.0.1:${LOOPBACK_PORT}/callback`,
    );
    expect(loopback.searchParams.get("error")).toBe("google");
    expect(loopback.searchParams.get("state")).toBe(secrets.state);
    expect(loopback.searchParams.has("code")).toBe(false);
  });

  it("answers a foreign Origin's exchange with 403", async () => {
    const { code, secrets } = await handOff();
    const foreign = await server.agent().request("POST", "/api/auth/desktop/exchange", {
      json: { code, codeVerifier: secrets.verifier },
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect((await exchange(server.agent(), code, secrets.verifier)).status).toBe(200);
  });
});

describe("the confirmation between Google and the app (RFC 8252 §8.6)", () => {
  const startUrl = (secrets: ReturnType<typeof appSecrets>) =>
    `${server.url}${startPath({
      code_challenge: secrets.challenge,
      state: secrets.state,
      port: String(LOOPBACK_PORT),
    })}`;

  it("stops the browser on a page that names the account; nothing reaches the loopback", async () => {
    const account = googleAccount();
    tokenClaims = account;
    const browser = createSystemBrowser();
    const page = await browser.open(startUrl(appSecrets()));
    expect(page.url).toBe(`${server.url}${CONFIRM_PATH}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain("<title>Sign in to the ClientDesk app? · ClientDesk</title>");
    expect(page.body).toContain(
      `You're signing in to the ClientDesk desktop app as <strong>${account.email}</strong>.`,
    );
    expect(page.body).toContain(
      "Continue only if you just chose “Sign in with Google” in the app.",
    );
    expect(page.body).toContain(`<form method="post" action="${CONFIRM_PATH}">`);
    expect(page.body).toContain(`<form method="post" action="${CANCEL_PATH}">`);
    expect(loopbackHits).toEqual([]);
    expect(await codesOf(account.email)).toEqual([]);

    // Reloading shows the same page, with headers that keep it from being framed or stored.
    const jar = browser.cookiesFor(new URL(server.url).host);
    expect(jar.has("sid")).toBe(false);
    const again = await fetch(`${server.url}${CONFIRM_PATH}`, {
      headers: { cookie: `desktop_sign_in=${jar.get("desktop_sign_in")}` },
    });
    expect(again.status).toBe(200);
    expect(again.headers.get("content-security-policy")).toBe(confirmCsp(LOOPBACK_PORT));
    expect(again.headers.get("cache-control")).toBe("no-store");
    expect(again.headers.get("content-type")).toMatch(/^text\/html/);
  });

  it("keeps the hand-off in an HttpOnly SameSite=Lax cookie, and escapes the email", async () => {
    tokenClaims = googleAccount();
    const browser = server.agent();
    const secrets = appSecrets();
    const start = await browser.get(
      startPath({
        code_challenge: secrets.challenge,
        state: secrets.state,
        port: String(LOOPBACK_PORT),
      }),
    );
    const authorized = await fetch(location(start), { redirect: "manual" });
    const callback = new URL(location(authorized));
    const answer = await browser.get(`${callback.pathname}${callback.search}`);
    expect(answer.status).toBe(303);
    const set = answer.headers.getSetCookie().find((line) => line.startsWith("desktop_sign_in="));
    expect(set).toMatch(/httponly/i);
    expect(set).toMatch(/samesite=lax/i);
    expect(set).toMatch(/path=\//i);
    expect(browser.cookieHeader).not.toMatch(/sid=/);

    expect(confirmationPage('o"ne<script>@example.com')).toContain(
      "<strong>o&quot;ne&lt;script&gt;@example.com</strong>",
    );
  });

  it("hands the code to the loopback when the user presses Continue", async () => {
    tokenClaims = googleAccount();
    const secrets = appSecrets();
    const browser = createSystemBrowser({ press: "Continue" });
    const page = await browser.open(startUrl(secrets));
    expect(page.body).toBe("app");
    expect(loopbackHits).toHaveLength(1);
    const delivered = new URL(loopbackHits[0]!, "http://127.0.0.1");
    expect(delivered.pathname).toBe("/callback");
    expect(delivered.searchParams.get("state")).toBe(secrets.state);
    const code = delivered.searchParams.get("code") ?? "";
    expect((await exchange(server.agent(), code, secrets.verifier)).status).toBe(200);
  });

  it("sends Cancel to the loopback as error=cancelled, with no code issued", async () => {
    const account = googleAccount();
    tokenClaims = account;
    const secrets = appSecrets();
    const page = await createSystemBrowser({ press: "Cancel" }).open(startUrl(secrets));
    expect(page.body).toBe("app");
    expect(loopbackHits).toHaveLength(1);
    const delivered = new URL(loopbackHits[0]!, "http://127.0.0.1");
    expect(delivered.searchParams.get("error")).toBe("cancelled");
    expect(delivered.searchParams.get("state")).toBe(secrets.state);
    expect(delivered.searchParams.has("code")).toBe(false);
    expect(await codesOf(account.email)).toEqual([]);
  });

  it("tells the app when the code cannot be issued (the account was deleted meanwhile)", async () => {
    const { browser, account, secrets } = await untilConfirmation();
    await User.query().delete().where({ email: account.email });
    const confirmed = await browser.post(CONFIRM_PATH);
    expect(confirmed.status).toBe(303);
    const loopback = new URL(location(confirmed));
    expect(loopback.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(loopback.searchParams.get("error")).toBe("google");
    expect(loopback.searchParams.get("state")).toBe(secrets.state);
    expect(loopback.searchParams.has("code")).toBe(false);
  });

  it("refuses a cross-origin or Origin-less Continue; the user's own still works", async () => {
    const { browser, account } = await untilConfirmation();
    const foreign = await browser.request("POST", CONFIRM_PATH, {
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect(location(foreign)).toBe("");
    const originless = await fetch(`${server.url}${CONFIRM_PATH}`, {
      method: "POST",
      headers: { cookie: browser.cookieHeader },
      redirect: "manual",
    });
    expect(originless.status).toBe(403);
    expect(originless.headers.get("location")).toBeNull();
    expect(await codesOf(account.email)).toEqual([]);

    const own = await browser.post(CONFIRM_PATH);
    expect(own.status).toBe(303);
    expect(new URL(location(own)).searchParams.get("code")).toMatch(/^[\w-]{43}$/);
    expect(await codesOf(account.email)).toHaveLength(1);
  });

  it("refuses a missing, forged, expired or reused confirmation cookie, issuing no code", async () => {
    const expectRefused = async (answer: { status: number; headers: Headers }) => {
      expect(answer.status).toBe(400);
      expect(answer.headers.get("location")).toBeNull();
    };
    await expectRefused(await server.agent().post(CONFIRM_PATH));
    await expectRefused(await server.agent().post(CANCEL_PATH));
    await expectRefused(
      await server.agent().post(CONFIRM_PATH, undefined, {
        cookie: `desktop_sign_in=v1:${randomBytes(120).toString("base64url")}`,
      }),
    );

    const reused = await untilConfirmation();
    const cookieHeader = reused.browser.cookieHeader;
    expect((await reused.browser.post(CONFIRM_PATH)).status).toBe(303);
    await expectRefused(
      await server.agent().post(CONFIRM_PATH, undefined, { cookie: cookieHeader }),
    );
    await expectRefused(
      await server.agent().post(CANCEL_PATH, undefined, { cookie: cookieHeader }),
    );
    expect(await codesOf(reused.account.email)).toHaveLength(1);

    const late = await untilConfirmation();
    (server.clock as TestClock).advance(3 * 60_000 + 1000);
    const expiredPage = await late.browser.get(CONFIRM_PATH);
    expect(expiredPage.status).toBe(400);
    await expectRefused(await late.browser.post(CONFIRM_PATH));
    expect(await codesOf(late.account.email)).toEqual([]);
    expect(loopbackHits).toEqual([]);
    // The cookie's content is never logged.
    expect(logLines.join("")).not.toContain(
      cookieHeader.split("desktop_sign_in=")[1]!.split(";")[0]!,
    );
  });
});

describe("a desktop sign-in that fails at the callback", () => {
  it("sends a rate-limited attempt to the app's loopback as an error, not to the web page", async () => {
    tokenClaims = googleAccount();
    const ip = freshIp();
    for (let i = 0; i < LIMITS.signInPerIp.points; i += 1) {
      await server.services.rateLimiter.consume(`signInPerIp:${ip}`, LIMITS.signInPerIp);
    }
    const secrets = appSecrets();
    const sentTo = await browserPart(new AgentFromIp(server.url, ip), secrets);
    expect(`${sentTo.origin}${sentTo.pathname}`).toBe(`http://127.0.0.1:${LOOPBACK_PORT}/callback`);
    expect(sentTo.searchParams.get("error")).toBe("google");
    expect(sentTo.searchParams.get("state")).toBe(secrets.state);
    const logs = logLines.join("");
    expect(logs).toContain("Google sign-in failed");
    expect(logs).not.toContain(secrets.state);
  });
});
