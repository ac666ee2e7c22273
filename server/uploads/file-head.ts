import { PassThrough, type Readable } from "node:stream";

export interface FileWithHead {
  /** At least the first `headBytes` of the file (all of it when shorter), for sniffing. */
  head: Buffer;
  /**
   * The whole file from its first byte (head included), with back-pressure. Errors with
   * `tooLarge()` once more than `maxBytes` went through it, and with the file's own error
   * (e.g. the client went away) otherwise.
   */
  stream: Readable;
}

export interface HeadOptions {
  headBytes: number;
  maxBytes: number;
  tooLarge: () => Error;
}

/**
 * Gathers the head of `file` and hands the file on as a stream of its own.
 *
 * Nobody reads `stream` until the head is complete (the caller sniffs it first), so
 * back-pressure must not pause `file` before then: pausing it there is what hung uploads
 * whose head was larger than the stream's buffer. Until the head is complete the chunks are
 * only buffered, which is bounded by `headBytes` plus one chunk; from then on a full buffer
 * pauses `file` and a drained one resumes it.
 *
 * `file` is never destroyed here (a multipart parser would stall on it): once `stream` is
 * given up, the rest of `file` is read and dropped.
 */
export function splitHead(file: Readable, options: HeadOptions): Promise<FileWithHead> {
  return new Promise((resolve, reject) => {
    const stream = new PassThrough();
    // A consumer that abandoned the stream must not turn a later error into a crash.
    stream.on("error", ignore);
    const headChunks: Buffer[] = [];
    let headSize = 0;
    let headDone = false;
    let received = 0;

    const finishHead = () => {
      if (headDone) return;
      headDone = true;
      resolve({ head: Buffer.concat(headChunks, headSize), stream });
      headChunks.length = 0;
    };
    const failWith = (error: Error) => {
      stream.destroy(error);
      if (!headDone) {
        headDone = true;
        reject(error);
      }
    };

    const onData = (chunk: Buffer) => {
      if (stream.destroyed) return;
      received += chunk.length;
      // Cut here rather than rely on the parser: not one byte past the limit reaches storage.
      if (received > options.maxBytes) return failWith(options.tooLarge());
      if (!headDone) {
        headChunks.push(chunk);
        headSize += chunk.length;
        if (headSize >= options.headBytes) finishHead();
      }
      if (!stream.write(chunk) && headDone) file.pause();
    };
    const onEnd = () => {
      stream.end();
      finishHead();
    };
    // Closed without "end" or "error": the file was cut short.
    const onClose = () => {
      if (!file.readableEnded) failWith(new Error("The file ended before it was complete"));
    };

    file.on("data", onData);
    file.once("end", onEnd);
    file.once("error", failWith);
    file.once("close", onClose);
    stream.on("drain", () => file.resume());
    stream.once("close", () => file.resume());
  });
}

function ignore() {}
