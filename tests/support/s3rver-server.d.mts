export interface S3rverInstance {
  /** http://127.0.0.1:<port>, path-style. */
  endpoint: string;
  bucket: string;
  /** Where s3rver keeps the bucket (removed by stop()). */
  directory: string;
  /** The S3_* variables that point a server at this bucket. */
  env: {
    S3_BUCKET: string;
    S3_ENDPOINT: string;
    S3_REGION: string;
    S3_ACCESS_KEY_ID: string;
    S3_SECRET_ACCESS_KEY: string;
    S3_FORCE_PATH_STYLE: "true";
  };
  /** Object keys in the bucket, sorted, then `<key>.partial` per unfinished multipart upload. */
  keys(): Promise<string[]>;
  /** Closes the server and removes its directory. */
  stop(): Promise<void>;
}

export function startS3rver(options?: { bucket?: string }): Promise<S3rverInstance>;
