import type { Readable } from "node:stream";

export interface StoredObject {
  size: number;
}

/** Where uploaded bytes live. Names are made by the server (random, no path parts). */
export interface Storage {
  /** Writes the stream under `name`; the object appears only once it is complete. */
  put(name: string, body: Readable | Buffer): Promise<StoredObject>;
  get(name: string, range?: { start: number; end: number }): Promise<Readable>;
  stat(name: string): Promise<StoredObject | null>;
  delete(name: string): Promise<void>;
}

// A stored file's image preview is kept under its name and ".preview" (see uploads/image-preview).
const SAFE_NAME = /^[A-Za-z0-9_-]{8,80}(\.[a-z0-9]{1,8})?(\.preview)?$/;

export function assertSafeName(name: string): void {
  if (!SAFE_NAME.test(name)) throw new Error(`Unsafe storage name: ${name}`);
}
