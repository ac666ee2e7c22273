import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults, RunOptions } from "axe-core";
import type { Page } from "playwright-core";
import { expect } from "vitest";

const require = createRequire(import.meta.url);
/** axe-core's own bundle; it sets window.axe. */
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA: the rules issue 12 holds every page to. */
export const WCAG_AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** The WCAG A/AA violations axe-core finds on the page as it is now. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // A dialog fading in has, for a moment, text over a half-transparent colour: check the
  // page as it settles (finite animations only; a spinner turns forever).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const loaded = await page.evaluate(() => "axe" in window);
  // Evaluated through the DevTools protocol rather than page.addScriptTag: the app's
  // Content-Security-Policy (script-src 'self') rightly refuses an inline script tag.
  if (!loaded) await page.evaluate(axeSource);
  return page.evaluate(async (tags) => {
    const { axe } = window as unknown as {
      axe: { run(context: Document, options: RunOptions): Promise<AxeResults> };
    };
    const results = await axe.run(document, {
      runOnly: { type: "tag", values: tags },
      resultTypes: ["violations"],
    });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      helpUrl: violation.helpUrl,
      nodes: violation.nodes.map((node) => ({
        target: node.target,
        failureSummary: node.failureSummary,
      })),
    }));
  }, WCAG_AA_TAGS);
}

/** Readable lines for a test failure: rule, impact, help, then each element and why. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map((violation) => {
      const nodes = violation.nodes
        .map(
          (node) =>
            `    ${JSON.stringify(node.target)}${node.failureSummary ? `\n      ${node.failureSummary.replaceAll("\n", "\n      ")}` : ""}`,
        )
        .join("\n");
      return `  ${violation.id} (${violation.impact}): ${violation.help}\n${nodes}`;
    })
    .join("\n");
}

/**
 * Fails when axe-core finds a serious or critical WCAG 2.2 A/AA violation on the page as it
 * is now; the message lists each rule id, impact, the elements (targets) and the rule's help.
 * Minor and moderate findings are not part of issue 12's bar and do not fail.
 */
export async function expectNoSeriousAxeViolations(page: Page, label: string): Promise<void> {
  const serious = (await axeViolations(page)).filter(
    (violation) => violation.impact === "serious" || violation.impact === "critical",
  );
  // Soft: a test that checks several pages reports every page's findings, then fails.
  expect
    .soft(
      serious,
      `axe-core: serious or critical WCAG violations on ${label}:\n${describeViolations(serious)}`,
    )
    .toEqual([]);
}
