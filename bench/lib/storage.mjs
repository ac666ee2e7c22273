// Where the benchmarked server keeps its files: BENCH_STORAGE=disk (default, DATA_DIR/files)
// or BENCH_STORAGE=s3rver (a real s3rver in a process of its own, tests/support/s3rver-server.mjs,
// the server pointed at it with the S3_* settings).
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { createInterface } from "node:readline";
import { root } from "./harness.mjs";

export const BENCH_STORAGE = process.env.BENCH_STORAGE ?? "disk";

/** { label, env (for startServer), stop() } */
export async function startBenchStorage() {
  if (BENCH_STORAGE === "disk") return { label: "local disk", env: {}, stop: async () => {} };
  if (BENCH_STORAGE !== "s3rver") throw new Error(`BENCH_STORAGE must be disk or s3rver, not ${BENCH_STORAGE}`);
  const child = spawn(process.execPath, [path.join(root, "tests/support/s3rver-server.mjs"), "bench"], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = once(child, "exit");
  const [line] = await Promise.race([
    once(createInterface({ input: child.stdout }), "line"),
    exited.then(() => {
      throw new Error("s3rver exited before it listened");
    }),
  ]);
  const { endpoint, env } = JSON.parse(line);
  return {
    label: `s3rver at ${endpoint}`,
    env,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await exited;
    },
  };
}
