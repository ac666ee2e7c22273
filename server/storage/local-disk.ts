import { once } from "node:events";
import { constants, createReadStream, createWriteStream } from "node:fs";
import { access, mkdir, opendir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { assertSafeName, type Storage, type StoredKey, type StoredObject } from "./storage";

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

  /** The files directory exists (made if missing, as put() would) and may be written to. */
  async probe(): Promise<void> {
    try {
      await mkdir(this.root, { recursive: true });
      if (!(await stat(this.root)).isDirectory()) throw new Error("not a directory");
      await access(this.root, constants.W_OK);
    } catch (error) {
      throw new Error(`files directory ${this.root} unusable: ${(error as Error).message}`);
    }
  }

  async delete(name: string): Promise<void> {
    await rm(this.pathOf(name), { force: true });
  }

  /** Walks DATA_DIR/files/<2 chars>/: the layout put() writes; anything else is left alone. */
  async *list(): AsyncIterable<StoredKey> {
    let top: Awaited<ReturnType<typeof opendir>>;
    try {
      top = await opendir(this.root);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    for await (const bucket of top) {
      if (!bucket.isDirectory()) continue;
      const folder = path.join(this.root, bucket.name);
      for await (const entry of await opendir(folder)) {
        if (!entry.isFile() || !entry.name.startsWith(bucket.name)) continue;
        try {
          const info = await stat(path.join(folder, entry.name));
          yield { key: entry.name, modifiedAt: info.mtime };
        } catch {
          // Removed since the directory was read.
        }
      }
    }
  }
}
