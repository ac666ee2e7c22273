import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["server/**/*.test.ts", "shared/**/*.test.ts", "web/**/*.test.ts", "desktop/**/*.test.ts", "tests/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: two files at a time.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
