import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../../shared/session-cookie";
import type { TestClock } from "../../tests/support/clock";
import { signUpOwner } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { statementsDuring } from "../../tests/support/statements";
import { hashToken } from "./session-store";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const DAY_MS = 24 * 60 * 60 * 1000;
const tokenOf = (cookieHeader: string) =>
  cookieHeader
    .split("; ")
    .find((pair) => pair.startsWith(`${SESSION_COOKIE}=`))!
    .slice(SESSION_COOKIE.length + 1);
const sessionCookie = (response: { headers: Headers }) =>
  response.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`));

const writesDuring = async (action: () => Promise<unknown>) =>
  (await statementsDuring(server.db, action)).filter((sql) => !/^\s*select\b/i.test(sql));

describe("session store", () => {
  it("stores only a SHA-256 hash of the session id, with the user agent", async () => {
    const owner = await signUpOwner(server);
    const token = tokenOf(owner.agent.cookieHeader);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await server.db("sessions").where("userId", owner.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].idHash).toBe(hashToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0].userAgent).toBeTruthy();
  });

  it("sets an httpOnly, SameSite=Lax cookie for 30 days at sign-in", async () => {
    const owner = await signUpOwner(server);
    const login = await server
      .agent()
      .post("/api/login", { username: owner.email, password: owner.password });
    const cookie = sessionCookie(login)!;
    expect(cookie).toMatch(/httponly/i);
    expect(cookie).toMatch(/samesite=lax/i);
    const expires = Date.parse(/expires=([^;]+)/i.exec(cookie)?.[1] ?? "");
    expect(Math.abs(expires - (Date.now() + 30 * DAY_MS))).toBeLessThan(60_000);
  });

  it("slides the expiry of row and cookie at most once a day, without writing in between", async () => {
    const owner = await signUpOwner(server);
    const idHash = hashToken(tokenOf(owner.agent.cookieHeader));
    const expiryOf = async () =>
      (await server.db("sessions").where({ idHash }).first()).expiresAt.getTime();
    const first = await expiryOf();

    let response: { headers: Headers } | undefined;
    const sameDay = await writesDuring(async () => {
      response = await owner.agent.get("/api/user");
    });
    expect(sameDay).toEqual([]);
    expect(sessionCookie(response!)).toBeUndefined();
    expect(await expiryOf()).toBe(first);

    (server.clock as TestClock).advance(DAY_MS + 60_000);
    response = await owner.agent.get("/api/user");
    const slid = await expiryOf();
    expect(slid - first).toBeGreaterThanOrEqual(DAY_MS);
    expect(sessionCookie(response)).toMatch(/httponly/i);

    const nextRequest = await writesDuring(async () => {
      response = await owner.agent.get("/api/user");
    });
    expect(nextRequest).toEqual([]);
    expect(sessionCookie(response!)).toBeUndefined();
    expect(await expiryOf()).toBe(slid);
  });

  it("lists a user's sessions and ends them all", async () => {
    const owner = await signUpOwner(server);
    const phone = server.agent();
    await phone.post("/api/login", { username: owner.email, password: owner.password });
    const listed = await server.services.sessions.sessionsOf(owner.id);
    expect(listed.map((session) => session.idHash).sort()).toEqual(
      [owner.agent.cookieHeader, phone.cookieHeader]
        .map((header) => hashToken(tokenOf(header)))
        .sort(),
    );
    expect((await phone.get("/api/user")).status).toBe(200);

    await server.services.sessions.endAllSessions(owner.id);
    expect(await server.services.sessions.sessionsOf(owner.id)).toEqual([]);
    expect((await phone.get("/api/user")).status).toBe(401);
    expect((await owner.agent.get("/api/user")).status).toBe(401);
  });

  it("authenticates a token through the same store, and nothing longer than an id", async () => {
    const owner = await signUpOwner(server);
    const signedIn = await server.services.sessions.load(tokenOf(owner.agent.cookieHeader));
    expect(signedIn?.user.id).toBe(owner.id);
    expect(await server.services.sessions.load("x".repeat(500))).toBeUndefined();
    expect(await server.services.sessions.load("nonsense")).toBeUndefined();
  });

  it("reads the stored session for a websocket, not the cached one", async () => {
    const owner = await signUpOwner(server);
    const token = tokenOf(owner.agent.cookieHeader);
    await owner.agent.get("/api/user");
    let storedUserId: string | undefined;
    const statements = await statementsDuring(server.db, async () => {
      storedUserId = (await server.services.sessions.loadStored(token))?.user.id;
    });
    expect(storedUserId).toBe(owner.id);
    expect(statements).toHaveLength(1);
    // Nor kept: an idle socket's session does not sit in the cache.
    server.services.sessionCache.clear();
    await server.services.sessions.loadStored(token);
    expect(server.services.sessionCache.get(token, Date.now())).toBeUndefined();
    expect(await server.services.sessions.loadStored("x".repeat(500))).toBeUndefined();
  });
});
