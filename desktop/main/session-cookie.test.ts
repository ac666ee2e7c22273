import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { FakeCookies, FakeSafeStorage } from "../test/fake-electron";
import { createSecureStore } from "./secure-store";
import { createSessionKeeper } from "./session-cookie";

const server = { serverUrl: "http://localhost:3000", scheme: "http" as const };

function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), "clientdesk-session-"));
  const safeStorage = new FakeSafeStorage();
  const store = createSecureStore({
    safeStorage,
    filePath: path.join(dir, "session.bin"),
    platform: "linux",
  });
  const cookies = new FakeCookies();
  const logs: string[] = [];
  const keeper = createSessionKeeper({
    cookies,
    store,
    server,
    log: (message) => logs.push(message),
  });
  return { store, cookies, keeper, logs, safeStorage };
}

describe("session keeper", () => {
  it("stores the sid cookie encrypted after sign-in and restores it at the next start", async () => {
    const first = setup();
    first.keeper.watch();
    first.cookies.serverSets("sid", "token-1", "localhost", Date.now() / 1000 + 86_400);
    await vi.waitFor(async () => expect(await first.store.load()).toContain("token-1"));

    const cookies = new FakeCookies();
    const keeper = createSessionKeeper({ cookies, store: first.store, server });
    keeper.watch();
    await keeper.restore();
    expect(cookies.setCalls).toEqual([
      {
        url: "http://localhost:3000",
        name: "sid",
        value: "token-1",
        path: "/",
        httpOnly: true,
        secure: false,
        sameSite: "lax",
      },
    ]);
  });

  it("deletes the stored session on sign-out, but not on a renewal", async () => {
    const { cookies, keeper, store } = setup();
    keeper.watch();
    cookies.serverSets("sid", "token-1", "localhost");
    cookies.serverSets("sid", "token-1", "localhost", Date.now() / 1000 + 86_400);
    await vi.waitFor(async () => expect(await store.load()).toContain("token-1"));
    cookies.serverClears("sid");
    await vi.waitFor(async () => expect(await store.load()).toBeNull());
  });

  it("ignores other cookies and other hosts", async () => {
    const { cookies, keeper, store } = setup();
    const save = vi.spyOn(store, "save");
    keeper.watch();
    cookies.serverSets("theme", "dark", "localhost");
    cookies.serverSets("sid", "elsewhere", "evil.example");
    expect(await store.load()).toBeNull();
    // Writes follow the jar's changes in order: once this later sid is stored, a write for
    // either cookie above would have happened first.
    cookies.serverSets("sid", "token-1", "localhost");
    await vi.waitFor(async () => expect(await store.load()).toContain("token-1"));
    expect(save).toHaveBeenCalledTimes(1);
    expect(save.mock.calls[0]?.[0]).toContain("token-1");
  });

  it("does not restore an expired session", async () => {
    const { store, cookies, keeper } = setup();
    await store.save(JSON.stringify({ value: "old", expires: Date.now() / 1000 - 10 }));
    await keeper.restore();
    expect(cookies.setCalls).toEqual([]);
    expect(await store.load()).toBeNull();
  });

  it("keeps the session in memory only when it cannot be protected", async () => {
    const { cookies, keeper, store, safeStorage, logs } = setup();
    safeStorage.backend = "basic_text";
    keeper.watch();
    cookies.serverSets("sid", "token-1", "localhost");
    await vi.waitFor(() =>
      expect(logs.join("\n")).toMatch(/in memory only \(plain-text-backend\)/),
    );
    safeStorage.backend = "gnome_libsecret";
    expect(await store.load()).toBeNull();
  });
});
