import type { Readable } from "node:stream";

export interface StoredObject {
  size: number;
}

/** One key found in storage, e.g. by the orphan sweep. */
export interface StoredKey {
  /** The stored name; unfinished writes end in PARTIAL_SUFFIX. */
  key: string;
  modifiedAt: Date;
}

/** Bytes being written under a name end in this until they are complete. */
export const PARTIAL_SUFFIX = ".partial";

/** A stored file's image preview is kept under its name and this (see uploads/image-preview). */
export const PREVIEW_SUFFIX = ".preview";
export const previewKeyOf = (storedName: string) => `${storedName}${PREVIEW_SUFFIX}`;

/** Where uploaded bytes live. Names are made by the server (random, no path parts). */
export interface Storage {
  /** Writes the stream under `name`; the object appears only once it is complete. */
  put(name: string, body: Readable | Buffer): Promise<StoredObject>;
  get(name: string, range?: { start: number; end: number }): Promise<Readable>;
  stat(name: string): Promise<StoredObject | null>;
  /** Removes `name` (a missing one is fine); also takes keys that list() yields. */
  delete(name: string): Promise<void>;
  /** Every key, finished or not (a `.partial` one), with its last modification time. */
  list(): AsyncIterable<StoredKey>;
  /** Resolves when the storage answers (readiness check); rejects naming why not. */
  probe(): Promise<void>;
}

// A stored name, its preview's key, and either one's ".partial" while being written.
const SAFE_NAME = /^[A-Za-z0-9_-]{8,80}(\.[a-z0-9]{1,8})?(\.preview)?(\.partial)?$/;

export function assertSafeName(name: string): void {
  if (!SAFE_NAME.test(name)) throw new Error(`Unsafe storage name: ${name}`);
}
