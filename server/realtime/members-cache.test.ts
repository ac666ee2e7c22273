import { describe, expect, it } from "vitest";
import type { Members } from "./access";
import { MembersCache } from "./members-cache";

function setup(options: { ttlMs?: number; maxEntries?: number } = {}) {
  let now = 0;
  const table = new Map<string, Members>();
  const loads: string[] = [];
  let gate: Promise<void> | null = null;
  const cache = new MembersCache(
    async (clientId) => {
      loads.push(clientId);
      const row = table.get(clientId) ?? null;
      if (gate) await gate;
      return row;
    },
    { ttlMs: options.ttlMs ?? 1_000, maxEntries: options.maxEntries ?? 100, now: () => now },
  );
  return {
    cache,
    table,
    loads,
    advance: (ms: number) => {
      now += ms;
    },
    hold() {
      let release!: () => void;
      gate = new Promise((resolve) => {
        release = resolve;
      });
      return () => {
        gate = null;
        release();
      };
    },
  };
}

describe("MembersCache", () => {
  it("asks once, then answers from memory until the TTL runs out", async () => {
    const { cache, table, loads, advance } = setup();
    table.set("c1", { staffIds: ["o1"], clientUserIds: ["u1"] });
    expect(await cache.get("c1")).toEqual({ staffIds: ["o1"], clientUserIds: ["u1"] });
    expect(await cache.get("c1")).toEqual({ staffIds: ["o1"], clientUserIds: ["u1"] });
    expect(loads).toEqual(["c1"]);
    advance(1_001);
    await cache.get("c1");
    expect(loads).toEqual(["c1", "c1"]);
  });

  it("shares one lookup between concurrent asks", async () => {
    const { cache, table, loads } = setup();
    table.set("c1", { staffIds: ["o1"], clientUserIds: [] });
    await Promise.all([cache.get("c1"), cache.get("c1"), cache.get("c1")]);
    expect(loads).toEqual(["c1"]);
  });

  it("never caches an unknown conversation", async () => {
    const { cache, loads } = setup();
    expect(await cache.get("gone")).toBeNull();
    expect(await cache.get("gone")).toBeNull();
    expect(loads).toEqual(["gone", "gone"]);
  });

  it("forgets a user's conversations, as owner or as client", async () => {
    const { cache, table, loads } = setup();
    table.set("c1", { staffIds: ["o1"], clientUserIds: ["u1"] });
    table.set("c2", { staffIds: ["o2"], clientUserIds: ["u2"] });
    await cache.get("c1");
    await cache.get("c2");
    cache.forgetUsers(["u1"]);
    table.delete("c1");
    expect(await cache.get("c1")).toBeNull();
    await cache.get("c2");
    expect(loads).toEqual(["c1", "c2", "c1"]);
    cache.forgetUsers(["o2"]);
    await cache.get("c2");
    expect(loads.at(-1)).toBe("c2");
  });

  it("does not keep a lookup that was under way when something changed", async () => {
    const { cache, table, loads, hold } = setup();
    table.set("c1", { staffIds: ["o1"], clientUserIds: [] });
    const release = hold();
    const stale = cache.get("c1");
    // The client joins while the lookup runs.
    table.set("c1", { staffIds: ["o1"], clientUserIds: ["u1"] });
    cache.forgetConversations(["c1"]);
    release();
    expect(await stale).toEqual({ staffIds: ["o1"], clientUserIds: [] });
    expect(await cache.get("c1")).toEqual({ staffIds: ["o1"], clientUserIds: ["u1"] });
    expect(loads).toEqual(["c1", "c1"]);
  });

  it("keeps at most maxEntries, dropping the oldest", async () => {
    const { cache, table } = setup({ maxEntries: 2 });
    for (const id of ["a", "b", "c"]) {
      table.set(id, { staffIds: ["o"], clientUserIds: [] });
      await cache.get(id);
    }
    expect(cache.size).toBe(2);
  });
});
