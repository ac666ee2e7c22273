import { randomUUID } from "node:crypto";
import { type MutableResponse, type MutableToken, OAuth2Server } from "oauth2-mock-server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestClock } from "../../tests/support/clock";
import { signUpOwner, uniqueEmail } from "../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../tests/support/server";
import { codeFrom } from "../../tests/support/smtp";
import { User } from "../models";

const CLIENT_ID = "clientdesk-test.apps.googleusercontent.com";
const CLIENT_SECRET = "test-google-client-secret";
const STATE_COOKIE = "google_sign_in";
const FAILED = "/auth?error=google";

let oauth: OAuth2Server;
let server: TestServer;
/** Claims the mock puts into the next tokens it signs (access token and ID token). */
let tokenClaims: Record<string, unknown> = {};

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
      GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
      GOOGLE_ISSUER: oauth.issuer.url!,
    },
  });
});
afterAll(async () => {
  await server?.close();
  await oauth?.stop();
});
afterEach(() => {
  tokenClaims = {};
  vi.restoreAllMocks();
});

/** A Google account as the mock will describe it; the nonce is echoed by the mock itself. */
function googleAccount(overrides: Record<string, unknown> = {}) {
  return {
    sub: `google-${randomUUID()}`,
    email: uniqueEmail("google"),
    email_verified: true,
    name: "Gina Google",
    ...overrides,
  };
}

interface FlowOptions {
  /** Runs between the mock's redirect and the callback, e.g. to tamper with the state. */
  editCallback?: (url: URL) => void;
  /** Calls the callback with this agent instead (e.g. a browser without the state cookie). */
  callbackAgent?: TestAgent;
  beforeCallback?: () => void;
  /** Where the browser starts (e.g. with a `next` path). */
  startPath?: string;
}

/** Drives the whole flow as a browser would: app → mock authorize → app callback. */
async function googleSignIn(
  agent: TestAgent,
  claims: Record<string, unknown>,
  options: FlowOptions = {},
) {
  const start = await agent.get(options.startPath ?? "/auth/google");
  expect(start.status).toBe(302);
  const authorizeUrl = new URL(start.headers.get("location")!);
  const authorized = await fetch(authorizeUrl, { redirect: "manual" });
  expect(authorized.status).toBe(302);
  const callbackUrl = new URL(authorized.headers.get("location")!);
  expect(callbackUrl.origin).toBe(server.origin);
  expect(callbackUrl.pathname).toBe("/auth/google/callback");
  options.editCallback?.(callbackUrl);
  options.beforeCallback?.();
  tokenClaims = claims;
  const callback = await (options.callbackAgent ?? agent).get(
    `${callbackUrl.pathname}${callbackUrl.search}`,
  );
  return { start, authorizeUrl, callback, callbackUrl };
}

const location = (response: { headers: Headers }) => response.headers.get("location");
const usersWithEmail = (email: string) => User.query().where({ email }).resultSize();

function expectRefused(response: { status: number; headers: Headers }) {
  expect(response.status).toBe(302);
  expect(location(response)).toBe(FAILED);
}

describe("availability", () => {
  it("is unavailable, and /auth/google is a JSON 404, without Google configuration", async () => {
    // Same database: createApp points Objection's global knex at it.
    const plain = await startTestServer({ db: server.db });
    try {
      const agent = plain.agent();
      const available = await agent.get("/api/auth/google-available");
      expect(available.status).toBe(200);
      expect(available.body).toEqual({ available: false });
      const start = await agent.get("/auth/google");
      expect(start.status).toBe(404);
      expect(start.body).toEqual({ message: expect.any(String) });
      const callback = await agent.get("/auth/google/callback?code=x&state=y");
      expectRefused(callback);
    } finally {
      await plain.close();
    }
  });

  it("sends the browser back to /auth when the issuer cannot be reached", async () => {
    const closed = new OAuth2Server();
    await closed.start(0, "127.0.0.1");
    const unreachableIssuer = closed.issuer.url!;
    await closed.stop();
    const broken = await startTestServer({
      db: server.db,
      env: {
        GOOGLE_CLIENT_ID: CLIENT_ID,
        GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
        GOOGLE_ISSUER: unreachableIssuer,
      },
    });
    try {
      const start = await broken.agent().get("/auth/google");
      expectRefused(start);
      expect(start.headers.getSetCookie()).toEqual([]);
    } finally {
      await broken.close();
    }
  });

  it("is available with a client id and secret", async () => {
    const available = await server.agent().get("/api/auth/google-available");
    expect(available.status).toBe(200);
    expect(available.body).toEqual({ available: true });
  });
});

describe("the authorization request", () => {
  it("redirects to the discovered endpoint with code flow, PKCE, state and nonce, kept in a cookie", async () => {
    const start = await server.agent().get("/auth/google");
    expect(start.status).toBe(302);
    const url = new URL(location(start)!);
    expect(`${url.origin}${url.pathname}`).toBe(`${oauth.issuer.url}/authorize`);
    const query = url.searchParams;
    expect(query.get("response_type")).toBe("code");
    expect(query.get("scope")).toBe("openid email profile");
    expect(query.get("client_id")).toBe(CLIENT_ID);
    expect(query.get("redirect_uri")).toBe(`${server.url}/auth/google/callback`);
    expect(query.get("code_challenge_method")).toBe("S256");
    expect(query.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(query.get("state")).toMatch(/^[\w-]{43}$/);
    expect(query.get("nonce")).toMatch(/^[\w-]{43}$/);
    expect(query.get("state")).not.toBe(query.get("nonce"));

    const cookie = start.headers.getSetCookie().find((line) => line.startsWith(`${STATE_COOKIE}=`));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=lax/i);
    const expires = Date.parse(/expires=([^;]+)/i.exec(cookie!)![1]!);
    expect(expires - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(10 * 60_000);
  });
});

describe("signing in", () => {
  it("creates a verified owner on the free plan and signs them in", async () => {
    const account = googleAccount({ email: uniqueEmail("MiXeD.Case") });
    const agent = server.agent();
    const { callback } = await googleSignIn(agent, account);
    expect(callback.status).toBe(302);
    expect(location(callback)).toBe("/");
    // The state cookie is spent.
    expect(
      callback.headers.getSetCookie().some((line) => line.startsWith(`${STATE_COOKIE}=;`)),
    ).toBe(true);
    expect(agent.cookieHeader).not.toContain(STATE_COOKIE);

    const me = await agent.get("/api/user");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: account.email.toLowerCase(),
      fullName: "Gina Google",
      role: "owner",
      accountTier: "free",
      emailVerified: true,
      hasPassword: false,
    });
    const stored = await User.query().findById(me.body.id);
    expect(stored?.googleSubject).toBe(account.sub);
    expect(stored?.passwordHash).toBeNull();
  });

  it("comes back to a `next` path of this site (a team invite's page), and to / for any other", async () => {
    const invitePage = "/team/invite/abc_DEF-123?x=1";
    const back = await googleSignIn(server.agent(), googleAccount(), {
      startPath: `/auth/google?next=${encodeURIComponent(invitePage)}`,
    });
    expect(location(back.callback)).toBe(invitePage);
    for (const next of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "team"]) {
      const { callback } = await googleSignIn(server.agent(), googleAccount(), {
        startPath: `/auth/google?next=${encodeURIComponent(next)}`,
      });
      expect(location(callback)).toBe("/");
    }
  });

  it("reuses the same user on a second sign-in", async () => {
    const account = googleAccount();
    const first = server.agent();
    await googleSignIn(first, account);
    const firstUser = await first.get("/api/user");
    expect(firstUser.status).toBe(200);

    const second = server.agent();
    const { callback } = await googleSignIn(second, { ...account, name: "Renamed At Google" });
    expect(location(callback)).toBe("/");
    const secondUser = await second.get("/api/user");
    expect(secondUser.body.id).toBe(firstUser.body.id);
    expect(secondUser.body.fullName).toBe("Gina Google");
    expect(await usersWithEmail(account.email)).toBe(1);
  });

  it("names a user without a Google name after their address", async () => {
    const email = uniqueEmail("noname");
    const agent = server.agent();
    await googleSignIn(agent, googleAccount({ email, name: undefined }));
    const me = await agent.get("/api/user");
    expect(me.body.fullName).toBe(email.split("@")[0]);
  });

  it("links to an existing password owner with the same email, who keeps their password", async () => {
    const owner = await signUpOwner(server, "Paula Password");
    const account = googleAccount({ email: owner.email, name: "Someone Else" });
    const agent = server.agent();
    const { callback } = await googleSignIn(agent, account);
    expect(location(callback)).toBe("/");
    const me = await agent.get("/api/user");
    expect(me.body).toMatchObject({ id: owner.id, fullName: "Paula Password", hasPassword: true });
    expect((await User.query().findById(owner.id))?.googleSubject).toBe(account.sub);
    expect(await usersWithEmail(owner.email)).toBe(1);

    const login = await server
      .agent()
      .post("/api/login", { username: owner.email, password: owner.password });
    expect(login.status).toBe(200);
  });

  it("verifies an unverified owner and drops the password nobody proved to own", async () => {
    const email = uniqueEmail("unverified");
    const registered = await server.agent().post("/api/register", {
      email,
      password: "squatter-password",
      fullName: "Early Bird",
      role: "owner",
      accountTier: "free",
    });
    expect(registered.status).toBe(201);
    const code = codeFrom(await server.smtp.waitFor(email));

    const agent = server.agent();
    const { callback } = await googleSignIn(agent, googleAccount({ email }));
    expect(location(callback)).toBe("/");
    const me = await agent.get("/api/user");
    expect(me.body).toMatchObject({ email, emailVerified: true, hasPassword: false });

    const login = await server
      .agent()
      .post("/api/login", { username: email, password: "squatter-password" });
    expect(login.status).toBe(401);
    // The mailed code is spent: the address is verified already.
    const verify = await server.agent().post("/api/verify-email", { email, code });
    expect(verify.status).not.toBe(200);
  });

  it("regenerates the session of a browser that was already signed in", async () => {
    const owner = await signUpOwner(server);
    const before = owner.agent.cookieHeader;
    const account = googleAccount();
    await googleSignIn(owner.agent, account);
    expect(owner.agent.cookieHeader).not.toBe(before);
    const me = await owner.agent.get("/api/user");
    expect(me.body.email).toBe(account.email);
  });
});

describe("refusals", () => {
  it("refuses a wrong state and leaves the browser signed out", async () => {
    const warn = vi.spyOn(server.services.logger, "warn");
    const account = googleAccount();
    const agent = server.agent();
    const { callback } = await googleSignIn(agent, account, {
      editCallback: (url) => url.searchParams.set("state", "forged-state"),
    });
    expectRefused(callback);
    expect(warn).toHaveBeenCalled();
    expect((await agent.get("/api/user")).status).toBe(401);
    expect(await usersWithEmail(account.email)).toBe(0);
  });

  it("refuses a callback without the state cookie (another browser: login CSRF)", async () => {
    const account = googleAccount();
    const victim = server.agent();
    const { callback } = await googleSignIn(server.agent(), account, { callbackAgent: victim });
    expectRefused(callback);
    expect((await victim.get("/api/user")).status).toBe(401);
  });

  it("refuses a forged state cookie", async () => {
    const agent = server.agent();
    const start = await agent.get("/auth/google");
    const state = new URL(location(start)!).searchParams.get("state")!;
    const payload = Buffer.from(
      JSON.stringify({
        state,
        nonce: "n",
        verifier: "v".repeat(43),
        expiresAt: Date.now() + 60_000,
      }),
    ).toString("base64url");
    const forger = server.agent();
    const response = await forger.get(`/auth/google/callback?code=abc&state=${state}`, {
      cookie: `${STATE_COOKIE}=${payload}.AAAA`,
    });
    expectRefused(response);
  });

  it("refuses a state cookie older than 10 minutes", async () => {
    const account = googleAccount();
    const agent = server.agent();
    const { callback } = await googleSignIn(agent, account, {
      beforeCallback: () => (server.clock as TestClock).advanceMinutes(11),
    });
    expectRefused(callback);
    expect(await usersWithEmail(account.email)).toBe(0);
  });

  it("refuses to replay a callback once it has been used", async () => {
    const account = googleAccount();
    const agent = server.agent();
    const { callbackUrl } = await googleSignIn(agent, account);
    await agent.post("/api/logout");
    const replay = await agent.get(`${callbackUrl.pathname}${callbackUrl.search}`);
    expectRefused(replay);
    expect((await agent.get("/api/user")).status).toBe(401);
  });

  it("refuses an unverified Google email", async () => {
    const account = googleAccount({ email_verified: false });
    const agent = server.agent();
    const { callback } = await googleSignIn(agent, account);
    expectRefused(callback);
    expect((await agent.get("/api/user")).status).toBe(401);
    expect(await usersWithEmail(account.email)).toBe(0);
  });

  it("refuses an ID token issued to another audience", async () => {
    const account = googleAccount({ aud: "someone-elses-client-id" });
    const agent = server.agent();
    const { callback } = await googleSignIn(agent, account);
    expectRefused(callback);
    expect((await agent.get("/api/user")).status).toBe(401);
    expect(await usersWithEmail(account.email)).toBe(0);
  });

  it("refuses an ID token from another issuer", async () => {
    const account = googleAccount({ iss: "https://evil.example" });
    const { callback } = await googleSignIn(server.agent(), account);
    expectRefused(callback);
    expect(await usersWithEmail(account.email)).toBe(0);
  });

  it("refuses an ID token whose nonce is not the one this browser sent", async () => {
    const account = googleAccount({ nonce: "someone-elses-nonce" });
    const { callback } = await googleSignIn(server.agent(), account);
    expectRefused(callback);
    expect(await usersWithEmail(account.email)).toBe(0);
  });

  it("refuses an expired ID token", async () => {
    const now = Math.floor(Date.now() / 1000);
    const account = googleAccount({ iat: now - 7200, exp: now - 3600 });
    const { callback } = await googleSignIn(server.agent(), account);
    expectRefused(callback);
    expect(await usersWithEmail(account.email)).toBe(0);
  });

  it("refuses an ID token signed with a key the issuer does not publish", async () => {
    const other = new OAuth2Server();
    await other.issuer.keys.generate("RS256");
    await other.start(0, "127.0.0.1");
    try {
      const account = googleAccount();
      const forged = await other.issuer.buildToken({
        scopesOrTransform: (_header, payload) => {
          Object.assign(payload, account, { iss: oauth.issuer.url, aud: CLIENT_ID });
        },
      });
      const { callback } = await googleSignIn(server.agent(), account, {
        beforeCallback: () => {
          oauth.service.once("beforeResponse", (response: MutableResponse) => {
            (response.body as Record<string, unknown>).id_token = forged;
          });
        },
      });
      expectRefused(callback);
      expect(await usersWithEmail(account.email)).toBe(0);
    } finally {
      await other.stop();
    }
  });

  it("refuses an ID token with the right claims and nonce but a key the issuer does not publish", async () => {
    const other = new OAuth2Server();
    await other.issuer.keys.generate("RS256");
    await other.start(0, "127.0.0.1");
    try {
      const account = googleAccount();
      const agent = server.agent();
      const start = await agent.get("/auth/google");
      const authorizeUrl = new URL(location(start)!);
      const nonce = authorizeUrl.searchParams.get("nonce");
      const forged = await other.issuer.buildToken({
        scopesOrTransform: (_header, payload) => {
          Object.assign(payload, account, { iss: oauth.issuer.url, aud: CLIENT_ID, nonce });
        },
      });
      const authorized = await fetch(authorizeUrl, { redirect: "manual" });
      const callbackUrl = new URL(location(authorized)!);
      oauth.service.once("beforeResponse", (response: MutableResponse) => {
        (response.body as Record<string, unknown>).id_token = forged;
      });
      const callback = await agent.get(`${callbackUrl.pathname}${callbackUrl.search}`);
      expectRefused(callback);
      expect(await usersWithEmail(account.email)).toBe(0);
    } finally {
      await other.stop();
    }
  });

  it("refuses when the token endpoint refuses the code", async () => {
    const account = googleAccount();
    const { callback } = await googleSignIn(server.agent(), account, {
      beforeCallback: () => {
        oauth.service.once("beforeResponse", (response: MutableResponse) => {
          response.statusCode = 400;
          response.body = { error: "invalid_grant" };
        });
      },
    });
    expectRefused(callback);
  });

  it("refuses when Google reports an error (e.g. the user cancelled)", async () => {
    const agent = server.agent();
    const start = await agent.get("/auth/google");
    const state = new URL(location(start)!).searchParams.get("state")!;
    const response = await agent.get(`/auth/google/callback?error=access_denied&state=${state}`);
    expectRefused(response);
  });

  it("does not sign a client user in as an owner", async () => {
    const email = uniqueEmail("client");
    await User.query().insert({
      email,
      passwordHash: null,
      fullName: "Carl Client",
      role: "client",
    });
    const agent = server.agent();
    const { callback } = await googleSignIn(agent, googleAccount({ email }));
    expectRefused(callback);
    expect((await agent.get("/api/user")).status).toBe(401);
    expect(await User.query().where({ email, role: "owner" }).resultSize()).toBe(0);
  });

  it("does not link an owner already linked to another Google account", async () => {
    const first = googleAccount();
    await googleSignIn(server.agent(), first);
    const agent = server.agent();
    const { callback } = await googleSignIn(agent, googleAccount({ email: first.email }));
    expectRefused(callback);
    expect((await agent.get("/api/user")).status).toBe(401);
  });
});
