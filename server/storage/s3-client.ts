import { S3Client } from "@aws-sdk/client-s3";
import type { S3Settings } from "../config";

/** The S3 client for S3_* settings: AWS S3, or MinIO, R2 and others at S3_ENDPOINT. */
export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // Checksums only where S3 requires them: several S3-compatible services (older MinIO,
    // R2, s3rver) refuse or mishandle the CRC32 headers the SDK adds by default since 3.729.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 3,
    // A storage that does not answer fails the request (and /readyz) instead of hanging it.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
}
