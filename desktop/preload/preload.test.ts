/**
 * The preload's upload functions with a fake of the three Electron APIs it uses (no Electron
 * binary here). What matters: the path comes from the File alone, a File without one is
 * refused without asking main, and only plain fields cross IPC.
 */
import { describe, expect, it, vi } from "vitest";
import type { DesktopApi } from "../common/desktop-api";
import { IpcChannels, SERVER_URL_SWITCH } from "../common/ipc-channels";

const electron = vi.hoisted(() => {
  const exposed: Record<string, unknown> = {};
  const invoked: unknown[][] = [];
  const listeners = new Map<string, ((event: unknown, ...args: unknown[]) => void)[]>();
  /** What Electron knows of each File: the path of a dropped or chosen one. */
  const paths = new WeakMap<object, string>();
  return {
    exposed,
    invoked,
    listeners,
    paths,
    module: {
      contextBridge: {
        exposeInMainWorld: (key: string, api: unknown) => {
          exposed[key] = api;
        },
      },
      ipcRenderer: {
        invoke: async (...args: unknown[]) => {
          invoked.push(args);
          return { outcome: "uploaded", status: 201, body: {} };
        },
        on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
          listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
        },
        removeListener: (channel: string, listener: unknown) => {
          listeners.set(
            channel,
            (listeners.get(channel) ?? []).filter((candidate) => candidate !== listener),
          );
        },
      },
      webUtils: { getPathForFile: (file: object) => paths.get(file) ?? "" },
    },
  };
});
vi.mock("electron", () => electron.module);

process.argv.push(`${SERVER_URL_SWITCH}http://localhost:3000`);
await import("./index");
const api = electron.exposed.clientdesk as DesktopApi;

const request = {
  uploadId: "up-1",
  target: { kind: "conversation", clientId: "c1", requiresFeedback: true },
  idempotencyKey: "key-1",
} as const;

describe("preload: streamed uploads", () => {
  it("sends main the path Electron knows for a dropped or chosen File, and plain fields only", async () => {
    const file = new File(["%PDF-1.4"], "brief.pdf");
    electron.paths.set(file, "/home/olivia/brief.pdf");
    const target = { ...request.target, url: "http://evil.example/", toString: () => "x" };
    const answer = await api.uploadFile(file, {
      ...request,
      target,
      filePath: "/etc/passwd",
    } as unknown as typeof request);
    expect(answer).toEqual({ outcome: "uploaded", status: 201, body: {} });
    expect(electron.invoked.at(-1)).toEqual([
      IpcChannels.uploadFile,
      {
        uploadId: "up-1",
        filePath: "/home/olivia/brief.pdf",
        target: { kind: "conversation", clientId: "c1", requiresFeedback: true },
        idempotencyKey: "key-1",
      },
    ]);
  });

  it("refuses a File the page made itself (no path) without asking main", async () => {
    electron.invoked.length = 0;
    const made = new File(["%PDF-1.4"], "made-up.pdf");
    expect(await api.uploadFile(made, request)).toEqual({
      outcome: "refused",
      status: 400,
      message: "Only a file dropped or chosen from your computer can be uploaded",
    });
    expect(electron.invoked).toEqual([]);
  });

  it("passes on well-formed progress, and cancels by id", async () => {
    const seen: unknown[] = [];
    const stop = api.onUploadProgress((progress) => seen.push(progress));
    const emit = (value: unknown) => {
      for (const listener of electron.listeners.get(IpcChannels.uploadProgress) ?? [])
        listener({}, value);
    };
    emit({ uploadId: "up-1", sent: 10, total: 20, extra: "dropped" });
    emit({ uploadId: "up-1", sent: "10" });
    emit(null);
    stop();
    emit({ uploadId: "up-1", sent: 20, total: 20 });
    expect(seen).toEqual([{ uploadId: "up-1", sent: 10, total: 20 }]);

    await api.cancelUpload("up-1");
    expect(electron.invoked.at(-1)).toEqual([IpcChannels.cancelUpload, "up-1"]);
  });
});

describe("preload: unsent messages", () => {
  it("asks main to load and save them on their own channels", async () => {
    await api.loadPendingMessages?.("u1");
    expect(electron.invoked.at(-1)).toEqual([IpcChannels.loadPendingMessages, "u1"]);
    const messages = [{ clientId: "c1", key: "k", content: "Hi", since: 1 }];
    await api.savePendingMessages?.("u1", messages);
    expect(electron.invoked.at(-1)).toEqual([
      IpcChannels.savePendingMessages,
      { userId: "u1", messages },
    ]);
  });
});
