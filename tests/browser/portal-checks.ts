import type { Page } from "playwright-core";

/** The viewports the portal's pages are checked at: a small phone and a desktop. */
export const VIEWPORTS = [
  { name: "phone", width: 375, height: 667 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

/** A screenshot to look at, under /tmp/shots-portal/. */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/shots-portal/${name}.png`, fullPage: false });
}
