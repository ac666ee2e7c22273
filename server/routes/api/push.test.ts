import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpOwner } from "../../../tests/support/factories";
import { addJoinedClient } from "../../../tests/support/conversations";
import { TestPushService } from "../../../tests/support/push-endpoint";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { PushSubscription } from "../../models";

let server: TestServer;
const pushService = new TestPushService();
beforeAll(async () => {
  const origin = await pushService.start();
  server = await startTestServer({ env: { PUSH_TEST_ORIGINS: origin } });
});
afterAll(async () => {
  await server?.close();
  await pushService.stop();
});

const rowsOf = (userId: string) => PushSubscription.query().where("userId", userId);

describe("GET /api/push/public-key", () => {
  it("gives the server's VAPID public key to a signed-in user", async () => {
    const owner = await signUpOwner(server);
    const answer = await owner.agent.get("/api/push/public-key");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ publicKey: server.services.config.vapid.publicKey });
    expect(Buffer.from(answer.body.publicKey, "base64url")).toHaveLength(65);
  });

  it("answers 401 without a session", async () => {
    expect((await server.agent().get("/api/push/public-key")).status).toBe(401);
  });
});

describe("POST /api/push/subscriptions", () => {
  it("saves this browser's subscription for the signed-in owner, once per endpoint", async () => {
    const owner = await signUpOwner(server);
    const device = pushService.subscribe();
    const first = await owner.agent.post("/api/push/subscriptions", {
      ...device,
      expirationTime: null,
    });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ success: true, message: "Notifications are on for this device" });
    expect((await owner.agent.post("/api/push/subscriptions", device)).status).toBe(201);
    const rows = await rowsOf(owner.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      endpoint: device.endpoint,
      p256dh: device.keys.p256dh,
      auth: device.keys.auth,
    });
  });

  it("saves a client's subscription too", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    expect(
      (await client.agent.post("/api/push/subscriptions", pushService.subscribe())).status,
    ).toBe(201);
    expect(await rowsOf(client.userId)).toHaveLength(1);
  });

  it("moves an endpoint to the account now signed in on that browser", async () => {
    const first = await signUpOwner(server);
    const second = await signUpOwner(server);
    const device = pushService.subscribe();
    await first.agent.post("/api/push/subscriptions", device);
    expect((await second.agent.post("/api/push/subscriptions", device)).status).toBe(201);
    expect(await rowsOf(first.id)).toHaveLength(0);
    expect(await rowsOf(second.id)).toHaveLength(1);
  });

  it("refuses what is not a subscription, naming the problem", async () => {
    const owner = await signUpOwner(server);
    const device = pushService.subscribe();
    const cases: [unknown, string][] = [
      [{ keys: device.keys }, "Endpoint is required"],
      [{ endpoint: "not a url", keys: device.keys }, "Endpoint must be a URL"],
      [{ endpoint: device.endpoint }, "keys are required"],
      [{ endpoint: device.endpoint, keys: { auth: device.keys.auth } }, "keys.p256dh is required"],
      [
        { endpoint: device.endpoint, keys: { ...device.keys, p256dh: "short" } },
        "keys.p256dh is not a valid key",
      ],
      [
        { endpoint: device.endpoint, keys: { ...device.keys, auth: "!!!!!!!!!!!!!!!!!!!!!!" } },
        "keys.auth is not a valid key",
      ],
      [{ ...device, userId: owner.id }, "Unknown field: userId"],
    ];
    for (const [body, message] of cases) {
      const answer = await owner.agent.post("/api/push/subscriptions", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toBe(message);
    }
    expect(await rowsOf(owner.id)).toHaveLength(0);
  });

  it("refuses endpoints the server must not call: plain http, loopback, private networks", async () => {
    const owner = await signUpOwner(server);
    const { keys } = pushService.subscribe();
    for (const endpoint of [
      "http://push.example.com/x",
      "https://127.0.0.1/x",
      "https://localhost/x",
      "https://10.0.0.8/x",
      "https://[::1]/x",
      "https://169.254.169.254/latest/meta-data",
      "https://metadata.google.internal/x",
      "https://user:pass@fcm.googleapis.com/x",
      `${pushService.origin.replace("127.0.0.1", "localhost")}/push/x`,
    ]) {
      const answer = await owner.agent.post("/api/push/subscriptions", { endpoint, keys });
      expect(answer.status, endpoint).toBe(400);
      expect(answer.body.message).toBe("Endpoint must be an https address of a push service");
    }
    expect(await rowsOf(owner.id)).toHaveLength(0);
  });

  it("answers 401 without a session", async () => {
    const answer = await server.agent().post("/api/push/subscriptions", pushService.subscribe());
    expect(answer.status).toBe(401);
  });
});

describe("DELETE /api/push/subscriptions", () => {
  it("turns this browser's notifications off", async () => {
    const owner = await signUpOwner(server);
    const device = pushService.subscribe();
    await owner.agent.post("/api/push/subscriptions", device);
    const answer = await owner.agent.request("DELETE", "/api/push/subscriptions", {
      json: { endpoint: device.endpoint },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      message: "Notifications are off for this device",
    });
    expect(await rowsOf(owner.id)).toHaveLength(0);
  });

  it("leaves another user's subscription alone", async () => {
    const owner = await signUpOwner(server);
    const other = await signUpOwner(server);
    const device = pushService.subscribe();
    await owner.agent.post("/api/push/subscriptions", device);
    const answer = await other.agent.request("DELETE", "/api/push/subscriptions", {
      json: { endpoint: device.endpoint },
    });
    expect(answer.status).toBe(200);
    expect(await rowsOf(owner.id)).toHaveLength(1);
  });

  it("needs the endpoint and a session", async () => {
    const owner = await signUpOwner(server);
    const empty = await owner.agent.request("DELETE", "/api/push/subscriptions", { json: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("Endpoint is required");
    const anonymous = await server.agent().request("DELETE", "/api/push/subscriptions", {
      json: { endpoint: "https://fcm.googleapis.com/x" },
    });
    expect(anonymous.status).toBe(401);
  });
});

describe("signing out", () => {
  it("removes the subscriptions that session made: a shared phone stops showing messages", async () => {
    const owner = await signUpOwner(server);
    await owner.agent.post("/api/push/subscriptions", pushService.subscribe());
    expect(await rowsOf(owner.id)).toHaveLength(1);
    expect((await owner.agent.post("/api/logout")).status).toBe(200);
    expect(await rowsOf(owner.id)).toHaveLength(0);
  });
});
