import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";

/**
 * Layout checks for the pseudo-locale tests (issue 29, "Layouts that survive"): texts that do
 * not fit their box, and UI texts that skipped translation. Both run in the page and return
 * human-readable findings ("<selector path>: <what>"), empty when all is well.
 */

export interface TextCheckOptions {
  /**
   * Texts the test itself wrote (names, messages, file names, emails): shown as they are in any
   * language, so not "untranslated"; and user data that a list may truncate with an ellipsis
   * (docs/decisions.md, "Layouts that survive").
   */
  userTexts: string[];
  /** The folder behind the screen: named for an element styled only by web/src/ui's classes. */
  area: string;
}

/**
 * Every visible element whose own text overflows its box:
 * - a direct text node whose line boxes (Range client rects) reach outside the content box of
 *   its element (for an inline element: of its nearest block ancestor), 1 px allowed;
 * - an element that clips (`overflow: hidden|clip`, or `text-overflow: ellipsis`) with more
 *   content than its box (scrollWidth/scrollHeight over clientWidth/clientHeight + 1). A UI
 *   text must never be clipped; a user-provided text (options.userTexts) cut with an ellipsis
 *   is accepted when its full text stays available: a `title` on it or an ancestor, or the
 *   text is in the accessibility tree (not aria-hidden), which CSS truncation leaves whole;
 * - two sibling elements with text whose boxes overlap (more than 1 px each way).
 */
export async function findTextOverflow(page: Page, options: TextCheckOptions): Promise<string[]> {
  await shimEsbuildNames(page);
  const found = await page.evaluate(textOverflowInPage, {
    userTexts: options.userTexts,
    areas: cssAreas(),
    screenArea: options.area,
  });
  return found.sort();
}

/**
 * Every visible text (text node or placeholder) in pseudo=long mode that still holds a run of
 * three or more plain ASCII letters once the test's own data and the English words Intl writes
 * (month and day names, "ago", "yesterday"...: pseudo-locales format dates as en) are taken out:
 * a text that did not go through t().
 */
export async function findUntranslatedTexts(
  page: Page,
  options: TextCheckOptions,
): Promise<string[]> {
  await shimEsbuildNames(page);
  const found = await page.evaluate(untranslatedInPage, {
    userTexts: options.userTexts,
    areas: cssAreas(),
    screenArea: options.area,
  });
  return found.sort();
}

let areasByClass: Record<string, string> | undefined;

/**
 * Which folder of web/src styles each CSS class (BEM blocks are one folder's): each finding
 * starts with its element's area, "[web/src/settings] ...", so a failure says whose it is.
 */
function cssAreas(): Record<string, string> {
  if (areasByClass) return areasByClass;
  const found: Record<string, string> = {};
  const root = path.resolve("web/src");
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".css"))
        for (const [, name] of readFileSync(full, "utf8").matchAll(/\.([a-z][\w-]*)/g)) {
          const area = path.relative(process.cwd(), dir);
          // A class styled in two areas (a shared one adjusted by a page) names neither.
          found[name!] = found[name!] === undefined || found[name!] === area ? area : "";
        }
    }
  };
  walk(root);
  // The shared primitives (web/src/ui) show texts their users give them: the user's area.
  for (const [name, area] of Object.entries(found))
    if (!area || area === "web/src/ui") delete found[name];
  areasByClass = found;
  return found;
}

/** esbuild's keepNames wraps functions in __name(); the page has no such helper. */
async function shimEsbuildNames(page: Page): Promise<void> {
  await page.evaluate("globalThis.__name ??= (target) => target");
}

// ---- Run in the page: self-contained, nothing from this module's scope. ----

function textOverflowInPage({
  userTexts,
  areas,
  screenArea,
}: {
  userTexts: string[];
  areas: Record<string, string>;
  screenArea: string;
}): string[] {
  const findings: string[] = [];
  const TOLERANCE = 1;

  const areaOf = (element: Element): string => {
    for (let current: Element | null = element; current; current = current.parentElement)
      for (const name of current.classList) if (areas[name]) return areas[name];
    return screenArea;
  };
  const pathOf = (element: Element): string => {
    const parts: string[] = [`[${areaOf(element)}]`];
    let current: Element | null = element;
    while (current && current !== document.body && parts.length < 6) {
      const classes = [...current.classList].slice(0, 2).map((name) => `.${name}`);
      const role = current.getAttribute("role");
      parts.splice(
        1,
        0,
        `${current.tagName.toLowerCase()}${classes.join("")}${role ? `[role=${role}]` : ""}`,
      );
      current = current.parentElement;
    }
    return `${parts[0]} ${parts.slice(1).join(" > ")}`;
  };
  const short = (text: string) => {
    const clean = text.replace(/\s+/g, " ").trim();
    return clean.length > 60 ? `${clean.slice(0, 57)}...` : clean;
  };
  const px = (value: number) => Math.round(value);

  /** Hidden, or visually hidden for screen readers only (1 px boxes, clip), itself or above. */
  const shown = new Map<Element, boolean>();
  const visible = (element: Element): boolean => {
    let answer = shown.get(element);
    if (answer !== undefined) return answer;
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    answer =
      element.checkVisibility({ opacityProperty: true, visibilityProperty: true }) &&
      !((box.width <= 1 || box.height <= 1) && style.overflow !== "visible") &&
      style.clipPath !== "inset(50%)" &&
      style.clip !== "rect(0px, 0px, 0px, 0px)" &&
      (!element.parentElement || visible(element.parentElement));
    shown.set(element, answer);
    return answer;
  };

  const contentBox = (element: Element) => {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    const side = (name: string) => Number.parseFloat(style.getPropertyValue(name)) || 0;
    return {
      left: box.left + side("border-left-width") + side("padding-left"),
      right: box.right - side("border-right-width") - side("padding-right"),
      top: box.top + side("border-top-width") + side("padding-top"),
      bottom: box.bottom - side("border-bottom-width") - side("padding-bottom"),
    };
  };

  const blockOf = (element: Element): Element => {
    let current: Element = element;
    while (current.parentElement && getComputedStyle(current).display.startsWith("inline")) {
      if (getComputedStyle(current).display !== "inline") break; // inline-block, inline-flex
      current = current.parentElement;
    }
    return current;
  };

  /** The descendant that reaches farthest out of a clipping box's sides: what to fix. */
  const stickingOut = (element: Element): string => {
    const box = element.getBoundingClientRect();
    let worst: { by: number; what: Element } | null = null;
    for (const inner of element.querySelectorAll("*")) {
      const rect = inner.getBoundingClientRect();
      if (rect.width === 0) continue;
      const by = Math.max(box.left - rect.left, rect.right - box.right);
      if (by > TOLERANCE && (!worst || by > worst.by)) worst = { by, what: inner };
    }
    return worst ? `; out by ${px(worst.by)} px: ${pathOf(worst.what)}` : "";
  };

  const ownText = (element: Element): Text[] =>
    [...element.childNodes].filter(
      (node): node is Text => node.nodeType === Node.TEXT_NODE && !!node.textContent?.trim(),
    );

  const isUserText = (text: string) => {
    const clean = text.replace(/\s+/g, " ").trim();
    return userTexts.some((value) => value.includes(clean) || clean.includes(value));
  };

  const fullTextAvailable = (element: Element): boolean => {
    if (element.closest("[aria-hidden=true]")) return !!element.closest("[title]");
    return true;
  };

  // With a modal dialog open, only the dialog: the page behind it is inert (and checked alone).
  const modals = document.querySelectorAll("[role=dialog], [role=alertdialog]");
  const root = modals[modals.length - 1] ?? document.body;
  const all = [...root.querySelectorAll("*")].filter(
    (element) =>
      !["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "svg"].includes(element.tagName) &&
      !element.closest("svg"),
  );
  for (const element of all) {
    const texts = ownText(element);
    const style = getComputedStyle(element);
    const clips =
      ["hidden", "clip"].includes(style.overflowX) ||
      ["hidden", "clip"].includes(style.overflowY) ||
      style.textOverflow === "ellipsis";
    if (texts.length === 0 && !clips) continue;
    if (!visible(element)) continue;

    // Own text outside its box (a box that clips is the clipping check's).
    const block = blockOf(element);
    const blockStyle = getComputedStyle(block);
    const blockClips =
      clips ||
      ["hidden", "clip"].includes(blockStyle.overflowX) ||
      blockStyle.textOverflow === "ellipsis";
    if (texts.length > 0 && !blockClips) {
      const limit = contentBox(block);
      // A glyph box taller than the line (line-height: 1 on a big font) is not an overflow.
      const lineHeight = Number.parseFloat(blockStyle.lineHeight);
      for (const node of texts) {
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) {
          if (rect.width === 0 || rect.height === 0) continue;
          const slack = Number.isNaN(lineHeight)
            ? TOLERANCE
            : Math.max(TOLERANCE, (rect.height - lineHeight) / 2 + TOLERANCE);
          const outside =
            rect.left < limit.left - TOLERANCE ||
            rect.right > limit.right + TOLERANCE ||
            rect.top < limit.top - slack ||
            rect.bottom > limit.bottom + slack;
          if (outside) {
            findings.push(
              `${pathOf(element)}: text "${short(node.textContent ?? "")}" (${px(rect.width)}x${px(rect.height)} at ${px(rect.left)},${px(rect.top)}) outside its box (${px(limit.right - limit.left)}x${px(limit.bottom - limit.top)} at ${px(limit.left)},${px(limit.top)})`,
            );
            break;
          }
        }
      }
    }

    // Clipped content.
    if (clips && element.textContent?.trim()) {
      const wide = element.scrollWidth > element.clientWidth + TOLERANCE;
      const tall =
        style.overflowY !== "visible" && element.scrollHeight > element.clientHeight + TOLERANCE;
      // Scroll areas (auto/scroll) are not clipping: only hidden/clip and ellipsis count.
      const clipsX =
        ["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis";
      const clipsY = ["hidden", "clip"].includes(style.overflowY);
      if ((wide && clipsX) || (tall && clipsY)) {
        const text = element.textContent;
        const accepted =
          style.textOverflow === "ellipsis" && isUserText(text) && fullTextAvailable(element);
        if (!accepted)
          findings.push(
            `${pathOf(element)}: "${short(text)}" clipped (content ${element.scrollWidth}x${element.scrollHeight} in ${element.clientWidth}x${element.clientHeight}${style.textOverflow === "ellipsis" ? ", ellipsis" : ""})${wide && clipsX ? stickingOut(element) : ""}`,
          );
      }
    }
  }

  // Sibling text boxes over each other: by their line fragments (an inline text that wraps
  // has a bounding box over the whole lines, which the next inline text on its last line is in).
  const parents = new Set(all.map((element) => element.parentElement).filter(Boolean));
  for (const parent of parents) {
    const boxes = [...parent!.children]
      .filter((child) => ownText(child).length > 0 && visible(child))
      .map((child) => ({ child, rects: [...child.getClientRects()] }));
    for (let a = 0; a < boxes.length; a += 1)
      for (let b = a + 1; b < boxes.length; b += 1) {
        let worst = { across: 0, down: 0 };
        for (const one of boxes[a]!.rects)
          for (const two of boxes[b]!.rects) {
            const across = Math.min(one.right, two.right) - Math.max(one.left, two.left);
            const down = Math.min(one.bottom, two.bottom) - Math.max(one.top, two.top);
            if (across > TOLERANCE && down > TOLERANCE && across * down > worst.across * worst.down)
              worst = { across, down };
          }
        if (worst.across > 0)
          findings.push(
            `${pathOf(boxes[a]!.child)} "${short(boxes[a]!.child.textContent ?? "")}" overlaps ${pathOf(boxes[b]!.child)} "${short(boxes[b]!.child.textContent ?? "")}" (${px(worst.across)}x${px(worst.down)} px)`,
          );
      }
  }
  return findings;
}

function untranslatedInPage({
  userTexts,
  areas,
  screenArea,
}: {
  userTexts: string[];
  areas: Record<string, string>;
  screenArea: string;
}): string[] {
  const areaOf = (element: Element): string => {
    for (let current: Element | null = element; current; current = current.parentElement)
      for (const name of current.classList) if (areas[name]) return areas[name];
    return screenArea;
  };
  // The English words Intl writes for dates and relative times (pseudo-locales format as en).
  const intlWords = new Set<string>();
  const addWords = (text: string) => {
    for (const word of text.match(/[A-Za-z]{3,}/g) ?? []) intlWords.add(word.toLowerCase());
  };
  for (let month = 0; month < 12; month += 1) {
    const date = new Date(2026, month, 1 + month);
    for (const options of [
      { month: "long" },
      { month: "short" },
      { weekday: "long" },
      { weekday: "short" },
      { hour: "numeric", dayPeriod: "long" },
    ] as Intl.DateTimeFormatOptions[])
      addWords(new Intl.DateTimeFormat("en", options).format(date));
  }
  const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const unit of ["second", "minute", "hour", "day", "week", "month", "year"] as const)
    for (const value of [-2, -1, 0, 1, 2]) {
      addWords(relative.format(value, unit));
      addWords(new Intl.RelativeTimeFormat("en", { style: "short" }).format(value, unit));
    }
  addWords("AM PM");

  const findings = new Set<string>();
  const check = (text: string, where: Element) => {
    let rest = text;
    for (const value of [...userTexts].sort((a, b) => b.length - a.length)) {
      const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      rest = rest.replace(new RegExp(`(?<![A-Za-z])${escaped}(?![A-Za-z])`, "g"), " ");
    }
    const words = (rest.match(/[A-Za-z]{3,}/g) ?? []).filter(
      (word) => !intlWords.has(word.toLowerCase()),
    );
    if (words.length === 0) return;
    const path: string[] = [];
    let current: Element | null = where;
    while (current && current !== document.body && path.length < 4) {
      const classes = [...current.classList].slice(0, 2).map((name) => `.${name}`);
      path.unshift(`${current.tagName.toLowerCase()}${classes.join("")}`);
      current = current.parentElement;
    }
    findings.add(`[${areaOf(where)}] ${path.join(" > ")}: "${text.replace(/\s+/g, " ").trim()}"`);
  };
  const visible = (element: Element) => {
    if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    const box = element.getBoundingClientRect();
    return box.width > 1 && box.height > 1;
  };

  const modals = document.querySelectorAll("[role=dialog], [role=alertdialog]");
  const root = modals[modals.length - 1] ?? document.body;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !node.textContent?.trim()) continue;
    // <code> shows literal tokens ("{client.name}"), the same in every language.
    if (parent.closest("script, style, noscript, template, textarea, svg, code, kbd")) continue;
    if (!visible(parent)) continue;
    check(node.textContent, parent);
  }
  for (const field of root.querySelectorAll("[placeholder]"))
    if (visible(field)) check(field.getAttribute("placeholder") ?? "", field);
  return [...findings];
}
