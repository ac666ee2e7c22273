import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { MESSAGE_MAX_LENGTH } from "../../shared/schemas/messages";
import type { PendingMessage } from "../../web/src/platform/pending-messages";
import { APP_START_URL } from "../common/app-origin";
import { IpcChannels } from "../common/ipc-channels";
import { createFakeElectron, FakeSafeStorage } from "../test/fake-electron";
import { createPendingMessagesStore } from "./pending-messages-store";

// index.ts imports the real module only to start itself inside Electron; never here.
vi.mock("electron", () => ({}));
const { SESSION_PARTITION, startDesktopApp } = await import("./index");

const TEXT = "The revised logo goes out Monday, promise";
const message = (overrides: Partial<PendingMessage> = {}): PendingMessage => ({
  clientId: "c1",
  key: "3f1c2a4e-8b7d-4c1e-9a2b-5d6e7f8a9b0c",
  content: TEXT,
  afterId: "m-41",
  since: 1_760_000_000_000,
  ...overrides,
});

function setup(platform: NodeJS.Platform = "linux") {
  const dir = mkdtempSync(path.join(tmpdir(), "clientdesk-pending-"));
  const filePath = path.join(dir, "pending-messages.bin");
  const safeStorage = new FakeSafeStorage();
  const logs: string[] = [];
  const open = () =>
    createPendingMessagesStore({
      safeStorage,
      filePath,
      platform,
      log: (line) => logs.push(line),
    });
  return { dir, filePath, safeStorage, logs, open };
}

describe("pending messages store", () => {
  it("keeps the messages encrypted on disk and reads them back after a restart", async () => {
    const { filePath, open, dir } = setup();
    const failed = message({
      key: "0b6a4f7e-1c2d-4e3f-8a9b-0c1d2e3f4a5b",
      content: "Second thought",
      failed: true,
      reason: "Client not found",
    });
    await open().save("u1", [message(), failed]);
    const onDisk = readFileSync(filePath);
    expect(onDisk.includes(Buffer.from(TEXT))).toBe(false);
    expect(onDisk.toString("latin1")).not.toContain("revised");
    expect(onDisk.toString("latin1")).not.toContain("3f1c2a4e");
    expect(readdirSync(dir)).toEqual(["pending-messages.bin"]);

    expect(await open().load("u1")).toEqual([message(), failed]);
  });

  it("keeps only the current user's: another user gets none, and the file goes", async () => {
    const { filePath, open } = setup();
    await open().save("u1", [message()]);
    const restarted = open();
    expect(await restarted.load("u2")).toEqual([]);
    expect(existsSync(filePath)).toBe(false);
    expect(await restarted.load("u1")).toEqual([]);
  });

  it("deletes the file when nothing is left to send, and on clear", async () => {
    const { filePath, open } = setup();
    const store = open();
    await store.save("u1", [message()]);
    await store.save("u1", []);
    expect(existsSync(filePath)).toBe(false);
    await store.save("u1", [message()]);
    expect(existsSync(filePath)).toBe(true);
    await store.clear();
    expect(existsSync(filePath)).toBe(false);
    expect(await store.load("u1")).toEqual([]);
  });

  it("without a real keychain (Linux basic_text) keeps them in memory only", async () => {
    const { filePath, open, safeStorage, logs } = setup("linux");
    safeStorage.backend = "basic_text";
    const store = open();
    await store.save("u1", [message()]);
    expect(existsSync(filePath)).toBe(false);
    expect(await store.load("u1")).toEqual([message()]);
    expect(logs).toEqual([
      "unsent messages kept in memory only (plain-text-backend): not written to disk",
    ]);
    expect(await open().load("u1")).toEqual([]);
  });

  it("drops a file it cannot decrypt", async () => {
    const { filePath, open, safeStorage } = setup("darwin");
    await open().save("u1", [message()]);
    const original = safeStorage.decryptString.bind(safeStorage);
    safeStorage.decryptString = () => {
      throw new Error("Error while decrypting the ciphertext");
    };
    expect(await open().load("u1")).toEqual([]);
    expect(existsSync(filePath)).toBe(false);
    safeStorage.decryptString = original;
  });
});

describe("pending messages over IPC in the app", () => {
  async function startApp(userData?: string) {
    const fake = createFakeElectron({ userData });
    const running = startDesktopApp(fake.electron, {
      env: {},
      platform: "linux",
      mainDir: "/opt/clientdesk/out/main",
      resourcesPath: "/opt/clientdesk/resources",
      log: () => {},
    });
    await running.ready;
    const save = (payload: unknown, from = APP_START_URL) =>
      fake.ipcMain.invoke(IpcChannels.savePendingMessages, from, payload);
    const load = (userId: unknown, from = APP_START_URL) =>
      fake.ipcMain.invoke(IpcChannels.loadPendingMessages, from, userId);
    const file = path.join(fake.userData, "pending-messages.bin");
    return { fake, save, load, file };
  }

  it("saves from the app's page, survives a restart, and sign-out deletes them", async () => {
    const first = await startApp();
    await first.save({ userId: "u1", messages: [message()] });
    expect(existsSync(first.file)).toBe(true);
    expect(readFileSync(first.file).includes(Buffer.from(TEXT))).toBe(false);

    const second = await startApp(first.fake.userData);
    expect(await second.load("u1")).toEqual([message()]);

    // The server ends the session (sign-out): its cookie goes, and the messages with it.
    const cookies = second.fake.sessions.get(SESSION_PARTITION)!.cookies;
    cookies.serverSets("sid", "the-session-token", "localhost", Date.now() / 1000 + 3600);
    cookies.serverClears("sid");
    await vi.waitFor(() => expect(existsSync(second.file)).toBe(false));
    expect(await second.load("u1")).toEqual([]);
  });

  it("refuses another page or frame, and bad arguments, without writing anything", async () => {
    const { save, load, file } = await startApp();
    await expect(
      save({ userId: "u1", messages: [message()] }, "https://evil.example/"),
    ).rejects.toThrow("IPC refused: not from the app");
    await expect(load("u1", "https://evil.example/")).rejects.toThrow("IPC refused");

    const refused = [
      { userId: "u1", messages: [message({ key: "not-a-uuid" })] },
      { userId: "u1", messages: [message({ content: "x".repeat(MESSAGE_MAX_LENGTH + 1) })] },
      { userId: "u1", messages: [message({ content: "" })] },
      { userId: "u1", messages: [message({ clientId: "../c1" })] },
      { userId: "u1", messages: [{ ...message(), extra: true }] },
      { userId: "u/1", messages: [] },
      { userId: "u1", messages: Array.from({ length: 201 }, () => message()) },
      "u1",
    ];
    for (const payload of refused) {
      await expect(save(payload)).rejects.toThrow(/IPC refused: bad arguments/);
    }
    await expect(load({ userId: "u1" })).rejects.toThrow(/IPC refused: bad arguments/);
    expect(existsSync(file)).toBe(false);

    // 200 at the longest allowed length are fine.
    const longest = message({ content: "y".repeat(MESSAGE_MAX_LENGTH) });
    await save({ userId: "u1", messages: Array.from({ length: 200 }, () => longest) });
    expect(existsSync(file)).toBe(true);
  });
});
