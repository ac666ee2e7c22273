// A real S3 server (s3rver 3.7.1) for the tests and benchmarks: on a free port of 127.0.0.1,
// its objects in a temporary directory. Plain JavaScript so that bench/*.mjs and a separate
// process use it too:
//
//   node tests/support/s3rver-server.mjs [bucket]
//
// prints one JSON line { endpoint, bucket, env } once it listens, and stops on SIGTERM/SIGINT.
//
// s3rver 3.7.1 answers NotImplemented to ListMultipartUploads (GET /bucket?uploads) and
// MethodNotAllowed to AbortMultipartUpload (DELETE /bucket/key?uploadId=...). Both are added
// here by a small middleware that reads and removes s3rver's own upload folders
// (<dir>/<bucket>/._S3rver_uploads/<uploadId>/{key,metadata,<part>...}); path-style only.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import S3rver from "s3rver";

const OBJECT_SUFFIX = "._S3rver_object";
const UPLOADS_FOLDER = "._S3rver_uploads";
/** s3rver's default account; any signature with it is accepted. */
const ACCESS_KEY = "S3RVER";

/** Unfinished multipart uploads of `bucket`, oldest first. */
async function unfinishedUploads(directory, bucket) {
  const folder = path.join(directory, bucket, UPLOADS_FOLDER);
  if (!existsSync(folder)) return [];
  const uploads = [];
  for (const uploadId of readdirSync(folder)) {
    try {
      const key = await readFile(path.join(folder, uploadId, "key"), "utf8");
      const { mtime } = await stat(path.join(folder, uploadId));
      uploads.push({ key, uploadId, initiated: mtime });
    } catch {
      // Completed or aborted meanwhile.
    }
  }
  return uploads.sort((a, b) => a.initiated - b.initiated);
}

function xmlError(ctx, status, code, message) {
  ctx.status = status;
  ctx.type = "application/xml";
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

/** ListMultipartUploads and AbortMultipartUpload, which s3rver 3.7.1 lacks. */
function multipartUploadRoutes(directory) {
  return async (ctx, next) => {
    const [, bucket, ...keyParts] = ctx.path.split("/");
    const key = decodeURIComponent(keyParts.join("/"));
    if (ctx.method === "GET" && bucket && !key && "uploads" in ctx.query) {
      if (!existsSync(path.join(directory, bucket)))
        return xmlError(ctx, 404, "NoSuchBucket", bucket);
      const prefix = String(ctx.query.prefix ?? "");
      const uploads = (await unfinishedUploads(directory, bucket)).filter((upload) =>
        upload.key.startsWith(prefix),
      );
      ctx.body = {
        ListMultipartUploadsResult: {
          Bucket: bucket,
          KeyMarker: "",
          UploadIdMarker: "",
          Prefix: prefix,
          MaxUploads: 1000,
          IsTruncated: false,
          ...(uploads.length > 0
            ? {
                Upload: uploads.map((upload) => ({
                  Key: upload.key,
                  UploadId: upload.uploadId,
                  Initiated: upload.initiated.toISOString(),
                })),
              }
            : {}),
        },
      };
      return;
    }
    if (ctx.method === "DELETE" && bucket && key && typeof ctx.query.uploadId === "string") {
      const folder = path.join(
        directory,
        bucket,
        UPLOADS_FOLDER,
        path.basename(ctx.query.uploadId),
      );
      if (!existsSync(folder))
        return xmlError(ctx, 404, "NoSuchUpload", "The specified upload does not exist.");
      await rm(folder, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    await next();
  };
}

/**
 * Starts s3rver with `bucket` (default "clientdesk-test") in a new temporary directory.
 * Resolves to { endpoint, bucket, directory, env, keys(), stop() }.
 */
export async function startS3rver(options = {}) {
  const bucket = options.bucket ?? "clientdesk-test";
  const directory = mkdtempSync(path.join(os.tmpdir(), "clientdesk-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  // After s3rver's XML encoder (index 1), before its routes.
  server.middleware.splice(2, 0, multipartUploadRoutes(directory));
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  let stopped = false;
  return {
    endpoint,
    bucket,
    directory,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: ACCESS_KEY,
      S3_FORCE_PATH_STYLE: "true",
    },
    /** Object keys, sorted, then `<key>.partial` for each unfinished multipart upload. */
    async keys() {
      const bucketDir = path.join(directory, bucket);
      const objects = existsSync(bucketDir)
        ? readdirSync(bucketDir, { recursive: true })
            .map(String)
            .filter((file) => file.endsWith(OBJECT_SUFFIX) && !file.startsWith(UPLOADS_FOLDER))
            .map((file) => file.slice(0, -OBJECT_SUFFIX.length).split(path.sep).join("/"))
            .sort()
        : [];
      const partial = (await unfinishedUploads(directory, bucket)).map(
        (upload) => `${upload.key}.partial`,
      );
      return [...objects, ...partial];
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const s3 = await startS3rver({ bucket: process.argv[2] });
  process.stdout.write(
    `${JSON.stringify({ endpoint: s3.endpoint, bucket: s3.bucket, env: s3.env })}\n`,
  );
  const stop = () => s3.stop().then(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
