/**
 * Shades of a brand colour that stay readable (WCAG AA, 4.5:1 for normal text). The spec's
 * default primary #0093ff under white text is only 3.2:1, and an agency owner may pick any
 * colour: filled elements (white text on the primary) and primary-coloured text both use a
 * shade derived here, so the chosen colour keeps its hue and every scheme passes.
 */
import { contrastRatio, MIN_TEXT_CONTRAST } from "./colors";
import { DEFAULT_COLORS } from "./defaults";

type Rgb = [number, number, number];

/** #rgb or #rrggbb as 0-255 channels; null for anything else. */
export function parseHex(color: string): Rgb | null {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!match) return null;
  let hex = match[1]!;
  if (hex.length === 3) hex = [...hex].map((digit) => digit + digit).join("");
  return [0, 2, 4].map((start) => Number.parseInt(hex.slice(start, start + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, "0")).join("")}`;
}

/** CSS `color-mix(in srgb, first <weight * 100>%, second)` for two parsed colours. */
function mixRgb(first: Rgb, second: Rgb, weight: number): Rgb {
  return first.map((channel, index) => channel * weight + second[index]! * (1 - weight)) as Rgb;
}

/** CSS `color-mix(in srgb, first <weight * 100>%, second)`; null when either is not #hex. */
export function mixHex(first: string, second: string, weight: number): string | null {
  const a = parseHex(first);
  const b = parseHex(second);
  return a && b ? toHex(mixRgb(a, b, weight)) : null;
}

const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [255, 255, 255];

/**
 * `color` itself when it has `min` contrast against each of `backgrounds`, otherwise the
 * closest shade of it that does: mixed with black (or with white, against dark backgrounds)
 * in 1% steps, which keeps the hue. Black or white, whichever does better, when no mix
 * reaches `min` (only possible with backgrounds far apart in lightness). Null when a colour
 * is not #hex.
 */
export function shadeForContrast(
  color: string,
  backgrounds: string[],
  min: number = MIN_TEXT_CONTRAST,
): string | null {
  const base = parseHex(color);
  if (!base || backgrounds.some((background) => !parseHex(background))) return null;
  const worst = (candidate: string) =>
    Math.min(...backgrounds.map((background) => contrastRatio(candidate, background)!));
  if (worst(color) >= min) return toHex(base);
  let best: { shade: string; steps: number } | null = null;
  for (const toward of [BLACK, WHITE]) {
    for (let steps = 1; steps <= 100; steps += 1) {
      const shade = toHex(mixRgb(base, toward, 1 - steps / 100));
      if (worst(shade) >= min) {
        if (!best || steps < best.steps) best = { shade, steps };
        break;
      }
    }
  }
  if (best) return best.shade;
  return worst("#000000") >= worst("#ffffff") ? "#000000" : "#ffffff";
}

export interface BrandColors {
  primaryColor: string;
  backgroundColor: string;
  textColor: string;
}

export interface BrandShades {
  /** Fill of primary buttons, own message bubbles, selected toggles: white text on it passes. */
  primaryStrong: string;
  /** Primary-coloured text (links, active tab, receipts) on the page's surfaces. */
  primaryText: string;
  /** Secondary text: the text colour softened toward the background as far as stays readable. */
  textMuted: string;
  /** Times, hints, the footer: softer still, and still 4.5:1. */
  textSubtle: string;
}

/**
 * The tints a page puts primary text on, as the themes define them (web/src/ui/theme.css for
 * the dashboard, web/src/client-portal/portal.css for a branded portal): the surface, the page
 * background (background mixed with 6% text), and the primary's soft tint (12% on the surface).
 */
function surfacesOf(primary: string, background: string, text: string): string[] {
  return [background, mixHex(background, text, 0.94)!, mixHex(primary, background, 0.12)!];
}

/**
 * The readable shades of a colour scheme. A colour that is not #hex (the settings accept any
 * text) counts as the spec's default for that role, so the page still gets passing shades.
 */
export function brandShades(colors: BrandColors): BrandShades {
  const pick = (value: string, fallback: string) => (parseHex(value) ? value : fallback);
  const primary = pick(colors.primaryColor, DEFAULT_COLORS.primaryColor);
  const background = pick(colors.backgroundColor, DEFAULT_COLORS.backgroundColor);
  const text = pick(colors.textColor, DEFAULT_COLORS.textColor);
  const surfaces = surfacesOf(primary, background, text);
  const softened = (textWeight: number) =>
    shadeForContrast(mixHex(text, background, textWeight)!, surfaces)!;
  return {
    primaryStrong: shadeForContrast(primary, ["#ffffff"])!,
    primaryText: shadeForContrast(primary, surfaces)!,
    // portal.css used to mix these in CSS (75% and 60% text), which fails for a grey text colour.
    textMuted: softened(0.75),
    textSubtle: softened(0.6),
  };
}
