import type { Browser, Locator, Page } from "playwright-core";
import { expect } from "vitest";

/** Waits for a notice (toast) showing `text` as its title or description. */
export async function expectToast(page: Page, text: string): Promise<void> {
  await page.locator(".toast").getByText(text, { exact: true }).waitFor();
}

/** Waits until an input shows `value`. */
export async function expectValue(locator: Locator, value: string): Promise<void> {
  await expect.poll(() => locator.inputValue()).toBe(value);
}

/** Waits until the page's path is `pathname`. */
export async function expectPath(page: Page, pathname: string): Promise<void> {
  await expect.poll(() => new URL(page.url()).pathname).toBe(pathname);
}

/** The session cookie's value of a signed-in test agent, to hand to a browser context. */
export function sessionOf(agent: { cookieHeader: string }): string {
  const sid = /(?:^|; )sid=([^;]+)/.exec(agent.cookieHeader)?.[1];
  if (!sid) throw new Error("the agent has no session cookie");
  return sid;
}

export interface OpenPageOptions {
  viewport?: { width: number; height: number };
  /** Playwright's default wait for each step (its own default is 30 s). */
  defaultTimeout?: number;
}

/** A page in a fresh browser context on `baseUrl`, signed in with `agent`'s session if given. */
export async function openPage(
  browser: Browser,
  baseUrl: string,
  agent?: { cookieHeader: string },
  options: OpenPageOptions = {},
): Promise<Page> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    ...(options.viewport && { viewport: options.viewport }),
  });
  if (options.defaultTimeout) context.setDefaultTimeout(options.defaultTimeout);
  if (agent) await context.addCookies([{ name: "sid", value: sessionOf(agent), url: baseUrl }]);
  return context.newPage();
}

/**
 * Keeps a screenshot of `page` as SCREENSHOT_DIR/<name>-<width>x<height>.png when that variable
 * is set (to look at what a test saw); nothing otherwise.
 */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  const { width, height } = page.viewportSize() ?? { width: 0, height: 0 };
  await page.screenshot({ path: `${dir}/${name}-${width}x${height}.png` });
}
