import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Whether browser tests can run; without a browser they are skipped loudly, except in CI. */
export const browserAvailable = existsSync(executablePath);

if (!browserAvailable) {
  const message = `Chromium not found at ${executablePath}: browser tests cannot run (set CHROMIUM_PATH or apt-get install chromium).`;
  if (process.env.CI === "true") throw new Error(message);
  console.warn(`\n!!! ${message} They are SKIPPED.\n`);
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}
