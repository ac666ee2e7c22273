import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** The viewports the portal's pages are checked at: a small phone and a desktop. */
export const VIEWPORTS = [
  { name: "phone", width: 375, height: 667 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

/** axe-core's WCAG 2.2 A and AA rules on the page as it is: no serious or critical violation. */
export async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  // Through the DevTools protocol: the page's CSP (script-src 'self') refuses inline scripts.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ...args: unknown[]
          ) => Promise<{
            violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
    });
    return result.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map(
        (violation) =>
          `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      );
  });
  expect(violations).toEqual([]);
}

/** A screenshot to look at, under /tmp/shots-portal/. */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/shots-portal/${name}.png`, fullPage: false });
}
