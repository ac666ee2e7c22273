import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestServer, startTestServer } from "../../tests/support/server";

/**
 * /healthz says the process is alive; /readyz whether it can do its work (database and
 * storage answer) and is not shutting down. The database being away is in
 * server/db/database-outage.test.ts (PostgreSQL through a TCP proxy).
 */
describe("health and readiness", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const get = (urlPath: string) => fetch(`${server.url}${urlPath}`);

  it("answers /healthz 200 and /readyz 200 ready, neither cached", async () => {
    const health = await get("/healthz");
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await get("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await ready.json()).toEqual({ status: "ready" });
    expect((await fetch(`${server.url}/readyz`, { method: "HEAD" })).status).toBe(200);
  });

  it("answers /readyz 503 naming the storage while the files directory is unusable; /healthz stays 200", async () => {
    const files = path.join(server.dataDir, "files");
    rmSync(files, { recursive: true, force: true });
    // A plain file where the directory should be: nothing can be written under it.
    writeFileSync(files, "not a directory");
    try {
      const ready = await get("/readyz");
      expect(ready.status).toBe(503);
      expect(ready.headers.get("retry-after")).toBe("5");
      expect(await ready.json()).toEqual({ status: "unavailable", message: "Storage unreachable" });
      expect((await get("/healthz")).status).toBe(200);
    } finally {
      rmSync(files, { force: true });
    }
    // Back by itself (the directory is made again, as an upload would).
    expect((await get("/readyz")).status).toBe(200);
  });

  it("answers /readyz 503 draining once a shutdown starts, and every answer closes its connection", async () => {
    server.services.drain.begin();
    const ready = await get("/readyz");
    expect(ready.status).toBe(503);
    expect(ready.headers.get("retry-after")).toBe("5");
    expect(ready.headers.get("connection")).toBe("close");
    expect(await ready.json()).toEqual({ status: "draining", message: "Shutting down" });
    const health = await get("/healthz");
    expect(health.status).toBe(200);
    expect(health.headers.get("connection")).toBe("close");
    expect((await get("/api/billing-mode")).headers.get("connection")).toBe("close");
  });
});
