/**
 * A real s3rver for tests: `startS3rver()` in the test's process, or as a separate one with
 * `node tests/support/s3rver-server.mjs [bucket]` (prints { endpoint, bucket, env } as JSON).
 * The implementation is plain JavaScript (s3rver-server.mjs) so that the benchmarks share it.
 */
export { type S3rverInstance, startS3rver } from "./s3rver-server.mjs";
