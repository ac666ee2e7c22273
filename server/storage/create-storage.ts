import path from "node:path";
import type { Config } from "../config";
import { LocalDiskStorage } from "./local-disk";
import { createS3Client } from "./s3-client";
import { S3Storage } from "./s3-storage";
import type { Storage } from "./storage";

/** The bucket when S3_BUCKET is set, else DATA_DIR/files. */
export function createStorage(config: Pick<Config, "dataDir" | "s3">): Storage {
  if (config.s3) return new S3Storage(createS3Client(config.s3), config.s3.bucket);
  return new LocalDiskStorage(path.join(config.dataDir, "files"));
}
