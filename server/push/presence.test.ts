import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpOwner } from "../../tests/support/factories";
import { TestClock } from "../../tests/support/clock";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { createLogger } from "../logger";
import { PRESENCE_REFRESH_MS, SocketPresence, usersWithOpenSocket } from "./presence";

let server: TestServer;
const clock = new TestClock();
beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(() => server?.close());

describe("socket presence across instances", () => {
  it("is kept by the instance's 20 s refresh, lapses 60 s after the last one, and ends with the instance", async () => {
    const { id: userId } = await signUpOwner(server);
    const services = { db: server.db, clock, logger: createLogger("silent") };
    const instance = new SocketPresence(services);
    const present = async () => (await usersWithOpenSocket(services, [userId])).has(userId);

    expect(await present()).toBe(false);
    expect(instance.isHere(userId)).toBe(false);
    await instance.connected(userId);
    expect(await present()).toBe(true);
    // Known here without a query (a push to this user is skipped at once).
    expect(instance.isHere(userId)).toBe(true);
    const userRow = () =>
      server.db("socket_presence").where({ instanceId: instance.instanceId, userId }).first();
    const written = (await userRow()).seenAt;
    // Refreshed every 20 s, the instance stays fresh however long the socket stays open, and
    // the user's own row is never written again.
    for (let beat = 0; beat < 4; beat += 1) {
      clock.advance(PRESENCE_REFRESH_MS);
      await instance.refresh();
      expect(await present()).toBe(true);
    }
    expect((await userRow()).seenAt).toEqual(written);
    // The instance died: no more refreshes, and a minute later the user counts as away.
    clock.advance(61_000);
    expect(await present()).toBe(false);

    await instance.connected(userId);
    await instance.disconnected(userId);
    expect(await present()).toBe(false);
    expect(instance.isHere(userId)).toBe(false);
    await instance.connected(userId);
    await instance.close();
    expect(await present()).toBe(false);
  });

  it("removes an instance that stopped without closing, and its users' rows, five minutes on", async () => {
    const { id: userId } = await signUpOwner(server);
    const services = { db: server.db, clock, logger: createLogger("silent") };
    const crashed = new SocketPresence(services);
    const alive = new SocketPresence(services);
    await crashed.connected(userId);
    clock.advance(4 * 60_000);
    await alive.refresh();
    expect(await server.db("socket_instances").where("id", crashed.instanceId)).toHaveLength(1);
    clock.advance(61_000);
    await alive.refresh();
    expect(await server.db("socket_instances").where("id", crashed.instanceId)).toHaveLength(0);
    expect(await server.db("socket_presence").where("instanceId", crashed.instanceId)).toHaveLength(
      0,
    );
    expect(await server.db("socket_instances").where("id", alive.instanceId)).toHaveLength(1);
    await alive.close();
  });
});
