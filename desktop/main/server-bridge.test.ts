import { describe, expect, it } from "vitest";
import { FakeSession } from "../test/fake-electron";
import { contentSecurityPolicy } from "./csp";
import {
  createServerForwarder,
  createServerInterceptor,
  createSocketHeaderListener,
  installServerBridge,
} from "./server-bridge";
import { loadServerConfig } from "./server-config";

const server = loadServerConfig({});
const csp = contentSecurityPolicy({ server });
const options = { server, devServerOrigin: null, csp };

function echoSession() {
  const session = new FakeSession();
  session.fetchImpl = async (input, init) => {
    const headers = new Headers();
    headers.append("Set-Cookie", "sid=new-secret; HttpOnly; Path=/; SameSite=Lax");
    headers.set("Content-Type", "application/json");
    headers.set("X-Has-More", "true");
    headers.set("Content-Encoding", "gzip");
    return new Response(JSON.stringify({ input, method: init.method }), { status: 200, headers });
  };
  return session;
}

describe("server bridge", () => {
  it("forwards the app's calls with the session's cookies and the server's own Origin", async () => {
    const session = echoSession();
    const forward = createServerForwarder(session, options);
    const answer = await forward(
      new Request("http://localhost:3000/api/login", {
        method: "POST",
        headers: {
          Origin: "app://clientdesk",
          "Content-Type": "application/json",
          Cookie: "sid=forged",
          "Sec-Fetch-Site": "cross-site",
        },
        body: JSON.stringify({ username: "a@b.c", password: "pw" }),
      }),
      "/api/login",
    );
    const call = session.fetchCalls[0]!;
    expect(call.input).toBe("http://localhost:3000/api/login");
    expect(call.init.credentials).toBe("include");
    expect(call.init.bypassCustomProtocolHandlers).toBe(true);
    const sent = new Headers(call.init.headers);
    expect(sent.get("origin")).toBe("http://localhost:3000");
    expect(sent.get("cookie")).toBeNull();
    expect(sent.get("sec-fetch-site")).toBeNull();
    expect(sent.get("content-type")).toBe("application/json");
    expect(new TextDecoder().decode(call.init.body as ArrayBuffer)).toBe(
      '{"username":"a@b.c","password":"pw"}',
    );

    expect(answer.status).toBe(200);
    expect(answer.headers.get("set-cookie")).toBeNull();
    expect(answer.headers.get("content-encoding")).toBeNull();
    expect(answer.headers.get("access-control-allow-origin")).toBe("app://clientdesk");
    expect(answer.headers.get("access-control-allow-credentials")).toBe("true");
    expect(answer.headers.get("access-control-expose-headers")).toContain("x-has-more");
    expect(await answer.json()).toEqual({
      input: "http://localhost:3000/api/login",
      method: "POST",
    });
  });

  it("refuses calls from any other origin", async () => {
    const session = echoSession();
    const forward = createServerForwarder(session, options);
    const answer = await forward(
      new Request("http://localhost:3000/api/clients", {
        headers: { Origin: "https://evil.example" },
      }),
      "/api/clients",
    );
    expect(answer.status).toBe(403);
    expect(session.fetchCalls).toHaveLength(0);
  });

  it("answers CORS preflights itself", async () => {
    const session = echoSession();
    const forward = createServerForwarder(session, options);
    const answer = await forward(
      new Request("http://localhost:3000/api/login", {
        method: "OPTIONS",
        headers: { Origin: "app://clientdesk", "Access-Control-Request-Headers": "content-type" },
      }),
      "/api/login",
    );
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-headers")).toBe("content-type");
    expect(session.fetchCalls).toHaveLength(0);
  });

  it("turns an unreachable server into a 502 with a message", async () => {
    const session = new FakeSession();
    session.fetchImpl = async () => {
      throw new TypeError("net::ERR_CONNECTION_REFUSED");
    };
    const answer = await createServerForwarder(session, options)(
      new Request("http://localhost:3000/api/user"),
      "/api/user",
    );
    expect(answer.status).toBe(502);
    expect((await answer.json()).message).toMatch(/Can't reach/);
  });

  it("passes a message's Idempotency-Key to the server, so the web app's retries stay single", async () => {
    const session = new FakeSession();
    session.fetchImpl = async () =>
      new Response(JSON.stringify({ message: "This request is already being processed" }), {
        status: 409,
        headers: { "Content-Type": "application/json", "Retry-After": "1" },
      });
    const answer = await createServerForwarder(session, options)(
      new Request("http://localhost:3000/api/clients/c1/messages", {
        method: "POST",
        headers: {
          Origin: "app://clientdesk",
          "Content-Type": "application/json",
          "Idempotency-Key": "9b2c6f4e-key",
        },
        body: JSON.stringify({ content: "hi" }),
      }),
      "/api/clients/c1/messages",
    );
    const sent = new Headers(session.fetchCalls[0]!.init.headers);
    expect(sent.get("idempotency-key")).toBe("9b2c6f4e-key");
    // The app reads Retry-After to know the first attempt is still running.
    expect(answer.status).toBe(409);
    expect(answer.headers.get("retry-after")).toBe("1");
    expect(answer.headers.get("access-control-expose-headers")).toContain("retry-after");
  });

  it("intercepts only the server's origin; everything else is blocked", async () => {
    const session = echoSession();
    const intercept = createServerInterceptor(session, options);
    const ok = await intercept(new Request("http://localhost:3000/api/user?x=1"));
    expect(ok.status).toBe(200);
    expect(session.fetchCalls[0]!.input).toBe("http://localhost:3000/api/user?x=1");
    const blocked = await intercept(new Request("https://tracker.example/pixel.gif"));
    expect(blocked.status).toBe(403);
    const devBlocked = await intercept(new Request("http://localhost:5173/"));
    expect(devBlocked.status).toBe(403);
    expect(session.fetchCalls).toHaveLength(1);
  });

  it("passes the dev server through, with the CSP on its pages, when unpackaged", async () => {
    const session = new FakeSession();
    session.fetchImpl = async () =>
      new Response("<!doctype html>", { headers: { "Content-Type": "text/html" } });
    const intercept = createServerInterceptor(session, {
      ...options,
      devServerOrigin: "http://localhost:5173",
    });
    const page = await intercept(new Request("http://localhost:5173/"));
    expect(page.headers.get("content-security-policy")).toBe(csp);
  });

  it("gives the /ws handshake the server's Origin and the session cookie", async () => {
    const session = new FakeSession();
    await session.cookies.set({ url: "http://localhost:3000", name: "sid", value: "secret-token" });
    const listener = createSocketHeaderListener(session, options);
    const answer = await new Promise<{ cancel?: boolean; requestHeaders?: Record<string, string> }>(
      (resolve) =>
        listener(
          {
            url: "ws://localhost:3000/ws",
            requestHeaders: {
              Origin: "app://clientdesk",
              Cookie: "other=1",
              "Sec-WebSocket-Version": "13",
            },
          },
          resolve,
        ),
    );
    expect(answer.requestHeaders).toEqual({
      Origin: "http://localhost:3000",
      Cookie: "sid=secret-token",
      "Sec-WebSocket-Version": "13",
    });

    const foreign = await new Promise<{ cancel?: boolean }>((resolve) =>
      listener(
        { url: "ws://localhost:3000/ws", requestHeaders: { Origin: "https://evil.example" } },
        resolve,
      ),
    );
    expect(foreign).toEqual({ cancel: true });
  });

  it("installs itself for http, https and the socket", () => {
    const session = new FakeSession();
    installServerBridge(session, options);
    expect([...session.protocolHandlers.keys()]).toEqual(["http", "https"]);
    expect(session.beforeSendHeaders?.filter).toEqual({ urls: ["ws://localhost:3000/ws*"] });
  });
});
