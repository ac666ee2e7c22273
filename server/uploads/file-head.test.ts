import { randomBytes } from "node:crypto";
import { type Duplex, Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { splitHead } from "./file-head";

const tooLarge = () => new Error("too large");

/** A file arriving in chunks of `chunkSize`, as a parser hands it on. */
function arriving(data: Buffer, chunkSize: number): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < data.length; at += chunkSize)
    chunks.push(data.subarray(at, at + chunkSize));
  return Readable.from(chunks, { objectMode: false });
}

describe("splitHead", () => {
  it("gives the head and then the whole file, for heads larger than any stream buffer", async () => {
    const data = randomBytes(3 * 1024 * 1024 + 7);
    for (const headBytes of [1, 4100, 16 * 1024, 64 * 1024, 1024 * 1024]) {
      for (const chunkSize of [1000, 16 * 1024, 65_536]) {
        const { head, stream } = await splitHead(arriving(data, chunkSize), {
          headBytes,
          maxBytes: data.length,
          tooLarge,
        });
        expect(head.length).toBeGreaterThanOrEqual(headBytes);
        expect(head.equals(data.subarray(0, head.length))).toBe(true);
        expect((await buffer(stream)).equals(data)).toBe(true);
      }
    }
  });

  it("gives a file shorter than the head, or empty, whole", async () => {
    for (const size of [0, 1, 4099]) {
      const data = randomBytes(size);
      const { head, stream } = await splitHead(arriving(data, 1000), {
        headBytes: 4100,
        maxBytes: 1e6,
        tooLarge,
      });
      expect(head.equals(data)).toBe(true);
      expect((await buffer(stream)).equals(data)).toBe(true);
    }
  });

  it("errors the stream past maxBytes, never passing the extra byte on", async () => {
    const data = randomBytes(100_001);
    const { stream } = await splitHead(arriving(data, 10_000), {
      headBytes: 4100,
      maxBytes: 100_000,
      tooLarge,
    });
    let passed = 0;
    stream.on("data", (chunk: Buffer) => {
      passed += chunk.length;
    });
    await expect(new Promise((_, reject) => stream.once("error", reject))).rejects.toThrow(
      "too large",
    );
    expect(passed).toBeLessThanOrEqual(100_000);
  });

  it("holds about one head and one buffer while nobody reads, not the file", async () => {
    const data = randomBytes(8 * 1024 * 1024);
    const file = arriving(data, 65_536);
    const { stream } = await splitHead(file, {
      headBytes: 64 * 1024,
      maxBytes: data.length,
      tooLarge,
    });
    // Back-pressure pauses the source (perhaps already while the head came in); if it never
    // did, the source runs to its end and the check below fails.
    if (!file.isPaused())
      await new Promise((resolve) => {
        file.once("pause", resolve);
        file.once("end", resolve);
      });
    // The source stopped long before the end of the file.
    const buffered = stream.readableLength + (stream as Duplex).writableLength;
    expect(buffered).toBeLessThan(512 * 1024);
    expect(file.readableEnded).toBe(false);
    expect((await buffer(stream)).length).toBe(data.length);
  });

  it("rejects when the file fails before its head is in", async () => {
    const file = new Readable({ read() {} });
    const split = splitHead(file, { headBytes: 4100, maxBytes: 1e6, tooLarge });
    file.push(Buffer.alloc(100));
    file.destroy(new Error("client went away"));
    await expect(split).rejects.toThrow("client went away");
  });
});
