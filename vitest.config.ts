import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "server/**/*.test.ts",
      "shared/**/*.test.ts",
      "web/**/*.test.ts",
      "desktop/**/*.test.ts",
      "tests/**/*.test.ts",
    ],
    globalSetup: ["tests/support/global-setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    // expect.poll waits up to 10 s (vitest's default is 1 s): browser steps on a loaded
    // 2-core CI machine can take longer than a second, and a poll ends as soon as it passes.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
    // Two cores: two files at a time.
    maxWorkers: 2,
    minWorkers: 1,
    // `npm run coverage` only (vitest run --coverage). What runs outside this process (spawned
    // server bundles, the app in Chromium) is not seen: README, "Tests".
    coverage: {
      provider: "v8",
      include: ["server/**", "web/src/**", "desktop/**", "shared/**"],
      exclude: [
        "**/*.test.ts",
        "**/*.test.tsx",
        "**/*.d.ts",
        "tests/**",
        "desktop/test/**",
        "**/dist/**",
        "**/out/**",
        "**/generated/**",
      ],
      // json-summary: the per-area figures README quotes are summed from it.
      reporter: ["text-summary", "html", "json-summary"],
      reportsDirectory: "coverage",
      // The figures are worth having when a slow machine times out a test or two.
      reportOnFailure: true,
    },
  },
});
