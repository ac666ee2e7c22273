import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FakeSafeStorage } from "../test/fake-electron";
import { createSecureStore } from "./secure-store";

const SECRET = "kT3x9wQf-session-secret-value_ABCDEFGHIJ";

function setup(platform: NodeJS.Platform = "linux") {
  const dir = mkdtempSync(path.join(tmpdir(), "clientdesk-store-"));
  const filePath = path.join(dir, "nested", "session.bin");
  const safeStorage = new FakeSafeStorage();
  const store = createSecureStore({ safeStorage, filePath, platform });
  return { dir, filePath, safeStorage, store };
}

describe("secure store", () => {
  it("encrypts with safeStorage and reads the secret back", async () => {
    const { store, filePath } = setup();
    expect(await store.save(SECRET)).toEqual({ stored: true });
    expect(await store.load()).toBe(SECRET);
    const onDisk = readFileSync(filePath);
    expect(onDisk.subarray(0, 3).toString()).toBe("v10");
  });

  it("never writes the plain secret", async () => {
    const { store, filePath, dir } = setup();
    await store.save(SECRET);
    const onDisk = readFileSync(filePath);
    expect(onDisk.includes(Buffer.from(SECRET))).toBe(false);
    expect(onDisk.toString("latin1")).not.toContain(SECRET.slice(0, 8));
    // No temporary file is left behind either.
    expect(readdirSync(path.join(dir, "nested"))).toEqual(["session.bin"]);
  });

  it.skipIf(process.platform === "win32")("writes the file with mode 0600", async () => {
    const { store, filePath } = setup();
    await store.save(SECRET);
    expect(statSync(filePath).mode & 0o777).toBe(0o600);
    await store.save(`${SECRET}-renewed`);
    expect(statSync(filePath).mode & 0o777).toBe(0o600);
    expect(await store.load()).toBe(`${SECRET}-renewed`);
  });

  it("refuses to store when encryption is unavailable", async () => {
    const { store, filePath, safeStorage } = setup("darwin");
    safeStorage.available = false;
    expect(store.refusalReason()).toBe("encryption-unavailable");
    expect(await store.save(SECRET)).toEqual({ stored: false, reason: "encryption-unavailable" });
    expect(existsSync(filePath)).toBe(false);
    expect(await store.load()).toBeNull();
  });

  it("refuses Linux's plain-text fallback backend (the session stays in memory)", async () => {
    const { store, filePath, safeStorage } = setup("linux");
    safeStorage.backend = "basic_text";
    expect(await store.save(SECRET)).toEqual({ stored: false, reason: "plain-text-backend" });
    expect(existsSync(filePath)).toBe(false);
  });

  it("accepts any backend outside Linux (Keychain, DPAPI)", async () => {
    const { store, safeStorage } = setup("darwin");
    safeStorage.backend = "basic_text";
    expect(await store.save(SECRET)).toEqual({ stored: true });
  });

  it("drops a file it cannot decrypt, and clears", async () => {
    const { store, filePath, safeStorage } = setup();
    await store.save(SECRET);
    safeStorage.decryptString = () => {
      throw new Error("Error while decrypting the ciphertext");
    };
    expect(await store.load()).toBeNull();
    expect(existsSync(filePath)).toBe(false);
    await store.clear();
    expect(existsSync(filePath)).toBe(false);
  });
});
