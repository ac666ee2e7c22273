import { createHash, randomBytes, randomUUID } from "node:crypto";
import { type MutableToken, OAuth2Server } from "oauth2-mock-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../tests/support/clock";
import { uniqueEmail } from "../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../tests/support/server";
import { User } from "../models";

const CLIENT_ID = "clientdesk-test.apps.googleusercontent.com";
const LOOPBACK_PORT = 51234;

let oauth: OAuth2Server;
let server: TestServer;
let tokenClaims: Record<string, unknown> = {};
const logLines: string[] = [];

beforeAll(async () => {
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
    },
    logDestination: { write: (line) => logLines.push(line) },
  });
});
afterAll(async () => {
  await server?.close();
  await oauth?.stop();
});
afterEach(() => {
  tokenClaims = {};
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

/** The system browser's part: start, Google (the mock), the callback; where it is sent at the end. */
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
  const authorized = await fetch(authorize, { redirect: "manual" });
  const callback = new URL(location(authorized));
  const answer = await browser.get(`${callback.pathname}${callback.search}`);
  expect(answer.status).toBe(302);
  return new URL(location(answer));
}

async function handOff(secrets = appSecrets(), account = googleAccount()) {
  tokenClaims = account;
  const browser = server.agent();
  const loopback = await browserPart(browser, secrets);
  return { browser, loopback, secrets, account, code: loopback.searchParams.get("code") ?? "" };
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
    const wrong = await exchange(thief, code, appSecrets().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.headers.getSetCookie()).toEqual([]);
    expect((await thief.get("/api/user")).status).toBe(401);
    expect((await exchange(server.agent(), code, secrets.verifier)).status).toBe(200);
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
