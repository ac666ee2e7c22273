import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type S3rverInstance, startS3rver } from "../../tests/support/s3rver";
import { loadConfig } from "../config";
import { createStorage } from "./create-storage";
import { LocalDiskStorage } from "./local-disk";
import { createS3Client } from "./s3-client";
import { S3Storage } from "./s3-storage";
import type { Storage } from "./storage";

/** One storage under test, and what the contract needs to know about where it keeps bytes. */
interface Subject {
  storage: Storage;
  /** A storage of the same kind that cannot work (for probe()). */
  broken: Storage;
  /** Every key the backing store holds, read without the storage under test. */
  keys(): Promise<string[]>;
  stop(): Promise<void>;
}

async function localDisk(): Promise<Subject> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "clientdesk-contract-"));
  const blocker = path.join(dir, "a-file");
  writeFileSync(blocker, "not a directory");
  const storage = new LocalDiskStorage(path.join(dir, "files"));
  return {
    storage,
    broken: new LocalDiskStorage(path.join(blocker, "files")),
    keys: async () => {
      const keys: string[] = [];
      for await (const { key } of storage.list()) keys.push(key);
      return keys.sort();
    },
    stop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function s3OnS3rver(): Promise<Subject> {
  const s3: S3rverInstance = await startS3rver();
  const config = loadConfig({ DATA_DIR: os.tmpdir(), SESSION_SECRET: "x".repeat(40), ...s3.env });
  return {
    storage: createStorage(config),
    broken: new S3Storage(
      createS3Client({ ...config.s3!, bucket: "no-such-bucket" }),
      "no-such-bucket",
    ),
    keys: () => s3.keys(),
    stop: () => s3.stop(),
  };
}

const name = (extension = "pdf") => `${randomBytes(16).toString("hex")}.${extension}`;
const MB = 1024 * 1024;

/** `bytes` in chunks of 64 KB, as an upload arrives. */
const chunked = (bytes: Buffer) =>
  Readable.from(
    Array.from({ length: Math.ceil(bytes.length / (64 * 1024)) }, (_, i) =>
      bytes.subarray(i * 64 * 1024, (i + 1) * 64 * 1024),
    ),
  );

/** `sent` bytes, then the error an upload refused while streaming ends with. */
function refusedAfter(sent: number, error: Error) {
  const stream = new PassThrough();
  stream.write(randomBytes(sent), () => stream.destroy(error));
  return stream;
}

async function listed(storage: Storage) {
  const keys: string[] = [];
  for await (const { key, modifiedAt } of storage.list()) {
    expect(modifiedAt).toBeInstanceOf(Date);
    keys.push(key);
  }
  return keys.sort();
}

describe.each([
  ["local disk", localDisk],
  ["S3 on s3rver", s3OnS3rver],
])("the storage contract: %s", (_label, start) => {
  let subject: Subject;
  let storage: Storage;
  beforeAll(async () => {
    subject = await start();
    storage = subject.storage;
  });
  afterAll(() => subject?.stop());

  it("keeps a buffer and gives it back whole, by range, and with its size", async () => {
    const key = name();
    const bytes = randomBytes(3000);
    expect(await storage.put(key, bytes)).toEqual({ size: 3000 });
    expect(await buffer(await storage.get(key))).toEqual(bytes);
    expect(await buffer(await storage.get(key, { start: 100, end: 199 }))).toEqual(
      bytes.subarray(100, 200),
    );
    expect(await buffer(await storage.get(key, { start: 2999, end: 2999 }))).toEqual(
      bytes.subarray(2999),
    );
    expect(await storage.stat(key)).toEqual({ size: 3000 });
    expect(await subject.keys()).toContain(key);
  });

  it("streams a 9 MB upload (a multipart upload on S3) and keeps it byte for byte", async () => {
    const key = name();
    const bytes = randomBytes(9 * MB + 123);
    expect(await storage.put(key, chunked(bytes))).toEqual({ size: bytes.length });
    expect((await buffer(await storage.get(key))).equals(bytes)).toBe(true);
    expect(await buffer(await storage.get(key, { start: 5 * MB - 10, end: 5 * MB + 9 }))).toEqual(
      bytes.subarray(5 * MB - 10, 5 * MB + 10),
    );
    expect(await storage.stat(key)).toEqual({ size: bytes.length });
    await storage.delete(key);
  });

  it("answers null for a missing name, and deletes one that is there or not", async () => {
    const key = name();
    expect(await storage.stat(key)).toBeNull();
    await storage.delete(key);
    await storage.put(key, Buffer.from("to delete"));
    await storage.delete(key);
    expect(await storage.stat(key)).toBeNull();
    expect(await subject.keys()).not.toContain(key);
  });

  it("lists every stored key with its modification time", async () => {
    const keys = [name(), name("png"), `${name("png")}.preview`];
    for (const key of keys) await storage.put(key, Buffer.from(key));
    const all = await listed(storage);
    for (const key of keys) expect(all).toContain(key);
    for (const key of keys) await storage.delete(key);
    const after = await listed(storage);
    for (const key of keys) expect(after).not.toContain(key);
  });

  it("refuses unsafe names", async () => {
    await expect(storage.put("../etc/passwd", Buffer.from("x"))).rejects.toThrow(/Unsafe/);
    await expect(storage.get("a/b")).rejects.toThrow(/Unsafe/);
  });

  it.each([
    ["early (a small body)", 100 * 1024],
    ["late (past the first 5 MB part)", 6 * MB],
  ])("keeps nothing of an upload refused while it streams, %s", async (_when, sent) => {
    const before = await subject.keys();
    const key = name();
    const refusal = new Error("File size must be less than 10 MB");
    await expect(storage.put(key, refusedAfter(sent, refusal))).rejects.toBe(refusal);
    expect(await storage.stat(key)).toBeNull();
    expect(await subject.keys()).toEqual(before);
  });

  it("shows an unfinished write as <name>.partial, and deleting that key ends it", async () => {
    const key = name();
    const body = new PassThrough();
    const writing = storage.put(key, body);
    writing.catch(() => {});
    body.write(randomBytes(6 * MB));
    await expect.poll(() => listed(storage)).toContain(`${key}.partial`);
    expect(await storage.stat(key)).toBeNull();

    await storage.delete(`${key}.partial`);
    expect(await subject.keys()).not.toContain(`${key}.partial`);
    body.end(randomBytes(1024));
    await expect(writing).rejects.toThrow();
    expect(await storage.stat(key)).toBeNull();
    expect((await subject.keys()).filter((stored) => stored.startsWith(key))).toEqual([]);
  });

  it("answers the readiness probe, and names why not when it cannot work", async () => {
    await expect(storage.probe()).resolves.toBeUndefined();
    await expect(subject.broken.probe()).rejects.toThrow(
      /files directory .* unusable|not reachable: answered 404/,
    );
  });
});
