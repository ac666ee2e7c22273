import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  type ListMultipartUploadsCommandOutput,
  ListObjectsV2Command,
  type S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { type Readable, Transform } from "node:stream";
import {
  assertSafeName,
  isSafeName,
  PARTIAL_SUFFIX,
  type Storage,
  type StoredKey,
  type StoredObject,
} from "./storage";

/**
 * S3's smallest part. A body that ends within it is sent as one PutObject once complete, so a
 * file refused while it streams (too large, a broken request) never reaches the bucket; a
 * longer one goes as a multipart upload, aborted on failure.
 */
const PART_BYTES = 5 * 1024 * 1024;

/**
 * Stored bytes in one bucket, each under its stored name (no prefix or folders). An
 * unfinished multipart upload of `name` shows in list() as `name.partial`, as a half-written
 * file does on disk, so the storage sweep aborts what a crash left behind; delete() of that
 * key aborts it.
 */
export class S3Storage implements Storage {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async put(name: string, body: Readable | Buffer): Promise<StoredObject> {
    assertSafeName(name);
    if (Buffer.isBuffer(body)) {
      await this.upload(name, body);
      return { size: body.length };
    }
    let size = 0;
    let bodyError: unknown = null;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    body.once("error", (error) => {
      bodyError = error;
      counter.destroy(error);
    });
    body.pipe(counter);
    try {
      await this.upload(name, counter);
    } catch (error) {
      body.unpipe(counter);
      // The body's own error (e.g. the 413 of the upload limit) is what the caller answers.
      throw bodyError ?? error;
    }
    if (bodyError) throw bodyError;
    return { size };
  }

  private async upload(name: string, body: Readable | Buffer) {
    await new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: name, Body: body },
      partSize: PART_BYTES,
      // One part at a time: an upload holds at most one 5 MB part in memory.
      queueSize: 1,
      leavePartsOnError: false,
    }).done();
  }

  async get(name: string, range?: { start: number; end: number }): Promise<Readable> {
    assertSafeName(name);
    const answer = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: name,
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    return answer.Body as Readable;
  }

  async stat(name: string): Promise<StoredObject | null> {
    assertSafeName(name);
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: name }),
      );
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(name: string): Promise<void> {
    assertSafeName(name);
    if (name.endsWith(PARTIAL_SUFFIX)) {
      const key = name.slice(0, -PARTIAL_SUFFIX.length);
      for await (const upload of this.uploads(key)) {
        if (upload.Key !== key) continue;
        try {
          await this.client.send(
            new AbortMultipartUploadCommand({
              Bucket: this.bucket,
              Key: key,
              UploadId: upload.UploadId,
            }),
          );
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
      }
      return;
    }
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: name }));
  }

  /** Stored objects, then unfinished uploads as `.partial`; other keys of a shared bucket are left out. */
  async *list(): AsyncIterable<StoredKey> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key && isSafeName(object.Key))
          yield { key: object.Key, modifiedAt: object.LastModified ?? new Date() };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    for await (const upload of this.uploads()) {
      const key = `${upload.Key}${PARTIAL_SUFFIX}`;
      if (isSafeName(key)) yield { key, modifiedAt: upload.Initiated ?? new Date() };
    }
  }

  private async *uploads(prefix?: string) {
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page: ListMultipartUploadsCommandOutput = await this.client.send(
        new ListMultipartUploadsCommand({
          Bucket: this.bucket,
          Prefix: prefix,
          KeyMarker: keyMarker,
          UploadIdMarker: uploadIdMarker,
        }),
      );
      yield* page.Uploads ?? [];
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
  }

  async probe(): Promise<void> {
    try {
      // Ends with the readiness check's own limit: a slow S3 must not pile up probes.
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), {
        abortSignal: AbortSignal.timeout(PROBE_LIMIT_MS),
      });
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata
        ?.httpStatusCode;
      const why = status
        ? `answered ${status} (${(error as Error).name})`
        : (error as Error).message;
      throw new Error(`S3 bucket ${this.bucket} is not reachable: ${why}`);
    }
  }
}

/** As long as /readyz waits for an answer (server/routes/health.ts). */
const PROBE_LIMIT_MS = 2_000;

function isNotFound(error: unknown): boolean {
  const name = (error as Error | undefined)?.name;
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  return name === "NotFound" || name === "NoSuchKey" || name === "NoSuchUpload" || status === 404;
}
