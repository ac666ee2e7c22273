import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { assertSafeName, type Storage, type StoredObject } from "./storage";

/** Files under DATA_DIR/files, written to a temporary name and renamed when complete. */
export class LocalDiskStorage implements Storage {
  constructor(private readonly root: string) {}

  private pathOf(name: string) {
    assertSafeName(name);
    return path.join(this.root, name.slice(0, 2), name);
  }

  async put(name: string, body: Readable | Buffer): Promise<StoredObject> {
    const target = this.pathOf(name);
    await mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}.partial`;
    const writer = createWriteStream(partial, { mode: 0o600 });
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, writer);
      await rename(partial, target);
    } catch (error) {
      // A stream that fails early may still be opening the file: removing it before the
      // writer closed would leave the partial file behind.
      if (!writer.closed) await once(writer, "close").catch(() => {});
      await rm(partial, { force: true });
      throw error;
    }
    return { size: (await stat(target)).size };
  }

  async get(name: string, range?: { start: number; end: number }): Promise<Readable> {
    return createReadStream(this.pathOf(name), range);
  }

  async stat(name: string): Promise<StoredObject | null> {
    try {
      return { size: (await stat(this.pathOf(name))).size };
    } catch {
      return null;
    }
  }

  async delete(name: string): Promise<void> {
    await rm(this.pathOf(name), { force: true });
  }
}
