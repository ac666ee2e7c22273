import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

// Debian's chromium-headless-shell is the headless-only build Playwright itself uses for
// headless runs: the same Blink and V8 without the browser UI, about a third of the full
// browser's CPU per test on a 2-core CI machine (docs/decisions.md, Tests and CI). It denies
// every notification permission, so a test of the notification settings asks for the full
// browser. CHROMIUM_PATH names one browser for every test.
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const FULL_CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const SHELL_OR_FULL =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM);

/** Whether browser tests can run; without a browser they are skipped loudly, except in CI. */
export const browserAvailable = existsSync(FULL_CHROMIUM);

if (!browserAvailable) {
  const message = `Chromium not found at ${FULL_CHROMIUM}: browser tests cannot run (set CHROMIUM_PATH or apt-get install chromium chromium-headless-shell).`;
  if (process.env.CI === "true") throw new Error(message);
  console.warn(`\n!!! ${message} They are SKIPPED.\n`);
}

/** A headless Chromium; `notifications` when the test needs Notification permission to be grantable. */
export async function launchBrowser(needs: { notifications?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: needs.notifications ? FULL_CHROMIUM : SHELL_OR_FULL,
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
