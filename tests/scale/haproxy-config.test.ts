import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Balancer, haproxyServers, startHaproxy } from "../support/cluster";
import { freePort } from "../support/server-process";

/**
 * deploy/haproxy.cfg itself, in front of a server that answers with the headers it received:
 * what the instances are told about the caller, the proxy's own errors, and a request that
 * could not reach one instance going to another. Needs haproxy, not a database.
 */
describe("deploy/haproxy.cfg", () => {
  let workDir: string;
  /** app2, and app1 (which stops listening in one test). */
  let echo: http.Server;
  let second: http.Server;
  let statsSocket: string;
  let balancer: Balancer;
  let url: string;
  beforeAll(async () => {
    workDir = mkdtempSync(path.join(os.tmpdir(), "clientdesk-haproxy-"));
    const answerWithHeaders: http.RequestListener = (req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(req.url === "/readyz" ? { status: "ok" } : req.headers));
    };
    echo = http.createServer(answerWithHeaders);
    second = http.createServer(answerWithHeaders);
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    await new Promise<void>((resolve) => second.listen(0, "127.0.0.1", resolve));
    statsSocket = path.join(workDir, "haproxy.sock");
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    balancer = await startHaproxy({
      workDir,
      env: {
        LISTEN_ADDR: `127.0.0.1:${port}`,
        STATS_SOCKET: statsSocket,
        APP1_ADDR: `127.0.0.1:${(second.address() as AddressInfo).port}`,
        APP2_ADDR: `127.0.0.1:${(echo.address() as AddressInfo).port}`,
        // Checks every 3 s, down after two failures: app1 is counted for seconds after it stops.
        CHECK_INTERVAL: "3s",
      },
    });
  });
  afterAll(async () => {
    await balancer?.stop();
    await new Promise((resolve) => echo?.close(resolve));
    if (second?.listening) await new Promise((resolve) => second.close(resolve));
    rmSync(workDir, { recursive: true, force: true });
  });

  it("passes the caller's own address and scheme on, never ones the caller made up", async () => {
    const answer = await fetch(`${url}/api/anything`, {
      headers: {
        "x-forwarded-for": "203.0.113.9",
        "x-forwarded-proto": "https",
        forwarded: "for=203.0.113.9",
      },
    });
    expect(answer.status).toBe(200);
    const seen = await answer.json();
    expect(seen["x-forwarded-for"]).toBe("127.0.0.1");
    expect(seen["x-forwarded-proto"]).toBe("http");
    expect(seen.forwarded).toBeUndefined();
    expect(["app1", "app2"]).toContain(answer.headers.get("x-served-by"));
  });

  it("sends a request that could not reach an instance to another one", async () => {
    // app1 passed its check, then stops listening: until two more checks failed (6 s) the
    // balancer still counts it and sends it every other request, each refused and retried on app2.
    await expect
      .poll(async () => (await haproxyServers(statsSocket)).app1)
      .toEqual({ state: "UP", check: "L7OK" });
    await new Promise((resolve) => {
      second.close(resolve);
      second.closeAllConnections();
    });
    for (let i = 0; i < 6; i += 1) {
      const answer = await fetch(`${url}/api/anything`, { method: "POST", body: "{}" });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-served-by")).toBe("app2");
    }
    expect((await haproxyServers(statsSocket)).app1?.state).toBe("UP");
    // The log's retries field (+1: redispatched to another server) says where they went.
    expect(balancer.output()).toMatch(/app\/app2 .* \d+\/\d+\/\d+\/\d+\/\+1 /);
  });

  it("answers its own errors as JSON with a message, like the app", async () => {
    const lone = await freePort();
    const dir = mkdtempSync(path.join(workDir, "lone-"));
    const nobody = await startHaproxy({
      workDir: dir,
      env: {
        LISTEN_ADDR: `127.0.0.1:${lone}`,
        STATS_SOCKET: path.join(dir, "haproxy.sock"),
        APP1_ADDR: `127.0.0.1:${await freePort()}`,
      },
    });
    try {
      // The only instance is down: 503 once checks say so, 502/503 before that.
      const answer = await fetch(`http://127.0.0.1:${lone}/api/user`);
      expect([502, 503]).toContain(answer.status);
      expect(answer.headers.get("content-type")).toBe("application/json");
      expect(answer.headers.get("retry-after")).toBe("5");
      expect(await answer.json()).toEqual({
        message: "The service is briefly unavailable. Please try again in a moment.",
      });
    } finally {
      await nobody.stop();
    }
  });
});
