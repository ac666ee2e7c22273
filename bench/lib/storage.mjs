// Where the benchmarked server keeps its files: BENCH_STORAGE=disk (default, DATA_DIR/files)
// or BENCH_STORAGE=s3rver (a real s3rver in a process of its own, tests/support/s3rver-server.mjs,
// the server pointed at it with the S3_* settings).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createReadStream, statSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { root } from "./harness.mjs";

export const BENCH_STORAGE = process.env.BENCH_STORAGE ?? "disk";

/** { label, env (for startServer), putDirect (s3rver only, else null), stop() } */
export async function startBenchStorage() {
  if (BENCH_STORAGE === "disk")
    return { label: "local disk", env: {}, putDirect: null, stop: async () => {} };
  if (BENCH_STORAGE !== "s3rver")
    throw new Error(`BENCH_STORAGE must be disk or s3rver, not ${BENCH_STORAGE}`);
  const child = spawn(
    process.execPath,
    [path.join(root, "tests/support/s3rver-server.mjs"), "bench"],
    {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const exited = once(child, "exit");
  const [line] = await Promise.race([
    once(createInterface({ input: child.stdout }), "line"),
    exited.then(() => {
      throw new Error("s3rver exited before it listened");
    }),
  ]);
  const { endpoint, bucket, env } = JSON.parse(line);
  const { S3Client, PutObjectCommand } = await import("@aws-sdk/client-s3");
  const client = new S3Client({
    region: env.S3_REGION,
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
    requestChecksumCalculation: "WHEN_REQUIRED",
  });
  return {
    label: `s3rver at ${endpoint}`,
    env,
    /** s3rver alone, for comparison: PUTs `file` under `key` straight to the bucket; its URL. */
    async putDirect(file, key) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: createReadStream(file),
          ContentLength: statSync(file).size,
        }),
      );
      // s3rver serves anonymous GETs.
      return `${endpoint}/${bucket}/${key}`;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await exited;
    },
  };
}
