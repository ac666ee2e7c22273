import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpOwner } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";

/** The request log: one JSON line per request, with the status the caller got. */
describe("request log", () => {
  const lines: string[] = [];
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { LOG_LEVEL: "info" },
      logDestination: { write: (line) => lines.push(line) },
    });
  });
  afterAll(() => server?.close());

  const requestLines = () =>
    lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "request");

  it("logs method, path, final status, time and user; error answers with their status", async () => {
    const owner = await signUpOwner(server);
    lines.length = 0;
    expect((await owner.agent.get("/api/user")).status).toBe(200);
    expect((await server.agent().get("/api/user")).status).toBe(401);
    expect((await server.agent().get("/api/no-such-thing")).status).toBe(404);
    const crossSite = await server.agent().post("/api/logout", undefined, {
      origin: "https://evil.example",
    });
    expect(crossSite.status).toBe(403);

    expect(requestLines()).toEqual([
      expect.objectContaining({ method: "GET", path: "/api/user", status: 200, user: owner.id }),
      expect.objectContaining({ method: "GET", path: "/api/user", status: 401 }),
      expect.objectContaining({ method: "GET", path: "/api/no-such-thing", status: 404 }),
      expect.objectContaining({ method: "POST", path: "/api/logout", status: 403 }),
    ]);
    for (const entry of requestLines()) {
      expect(entry).toMatchObject({ level: 30, time: expect.any(Number), ms: expect.any(Number) });
    }
    expect(requestLines()[1]).not.toHaveProperty("user");
  });

  it("keeps health checks out of the log", async () => {
    lines.length = 0;
    expect((await server.agent().get("/healthz")).status).toBe(200);
    expect(requestLines()).toEqual([]);
  });

  it("escapes what the caller chose (the path) so every line stays one JSON object", async () => {
    lines.length = 0;
    // Raw, so that no client tidies the path first.
    const socket = connect(Number(new URL(server.url).port), "127.0.0.1");
    socket.end('GET /api/"quoted"\\path HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await new Promise((resolve) => socket.on("close", resolve).resume());
    expect(lines).toHaveLength(1);
    expect(lines[0]?.endsWith("}\n")).toBe(true);
    expect(requestLines()[0]).toMatchObject({ path: '/api/"quoted"\\path', status: 404 });
  });
});
