import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { contrastRatio } from "./colors";
import { brandShades, mixHex, parseHex, shadeForContrast } from "./contrast";
import { DEFAULT_COLORS } from "./defaults";

const hueOf = (color: string) => {
  const [r, g, b] = parseHex(color)!.map((channel) => channel / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max === min) return 0;
  const hue =
    max === r
      ? (g - b) / (max - min)
      : max === g
        ? 2 + (b - r) / (max - min)
        : 4 + (r - g) / (max - min);
  return (hue * 60 + 360) % 360;
};

describe("shadeForContrast", () => {
  it("keeps a colour that already passes", () => {
    expect(shadeForContrast("#1d4ed8", ["#ffffff"])).toBe("#1d4ed8");
  });

  it("darkens the spec's #0093ff (3.2:1 under white) to the lightest shade that reaches 4.5:1", () => {
    const shade = shadeForContrast("#0093ff", ["#ffffff"])!;
    expect(contrastRatio(shade, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    // It is #0093ff with some black mixed in, and 1% less black would not pass: the shade is
    // no darker than it must be.
    const black = [...Array(100).keys()].find(
      (percent) => mixHex("#0093ff", "#000000", 1 - percent / 100) === shade,
    )!;
    expect(black).toBeGreaterThan(0);
    expect(
      contrastRatio(mixHex("#0093ff", "#000000", 1 - (black - 1) / 100)!, "#ffffff"),
    ).toBeLessThan(4.5);
    expect(hueOf(shade)).toBeCloseTo(hueOf("#0093ff"), 0);
  });

  it("lightens against a dark background", () => {
    const shade = shadeForContrast("#1e3a8a", ["#0b1220"])!;
    expect(contrastRatio(shade, "#0b1220")).toBeGreaterThanOrEqual(4.5);
    expect(parseHex(shade)![2]).toBeGreaterThan(parseHex("#1e3a8a")![2]);
  });

  it("passes against every background it is given", () => {
    const backgrounds = ["#ffffff", "#f0f0f0", "#e0f1ff"];
    const shade = shadeForContrast("#0093ff", backgrounds)!;
    for (const background of backgrounds) {
      expect(contrastRatio(shade, background)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("is null for what is not #hex", () => {
    expect(shadeForContrast("blue", ["#ffffff"])).toBeNull();
    expect(shadeForContrast("#0093ff", ["white"])).toBeNull();
  });
});

describe("brandShades", () => {
  /** Owners' schemes of every kind: light, dark, saturated, pastel, and near-white. */
  const schemes = [
    DEFAULT_COLORS,
    { primaryColor: "#ffdd00", backgroundColor: "#ffffff", textColor: "#000000" },
    { primaryColor: "#ff0000", backgroundColor: "#fffaf0", textColor: "#222222" },
    { primaryColor: "#00ff00", backgroundColor: "#ffffff", textColor: "#101828" },
    { primaryColor: "#e91e63", backgroundColor: "#fdf2f8", textColor: "#3b0a1e" },
    { primaryColor: "#7c3aed", backgroundColor: "#ffffff", textColor: "#000000" },
    { primaryColor: "#f5f5f5", backgroundColor: "#ffffff", textColor: "#000000" },
    { primaryColor: "#0093ff", backgroundColor: "#101828", textColor: "#ffffff" },
    { primaryColor: "#38bdf8", backgroundColor: "#0b1220", textColor: "#e5e7eb" },
    { primaryColor: "#ffb000", backgroundColor: "#fffdf5", textColor: "#1f2937" },
  ];

  it.each(schemes)(
    "gives white text 4.5:1 on the fill and primary text 4.5:1 on the surfaces: %o",
    (colors) => {
      const { primaryStrong, primaryText, textMuted, textSubtle } = brandShades(colors);
      expect(contrastRatio("#ffffff", primaryStrong)).toBeGreaterThanOrEqual(4.5);
      // The surfaces portal.css puts primary text on: surface, page background, soft tint.
      const surfaces = [
        colors.backgroundColor,
        mixHex(colors.backgroundColor, colors.textColor, 0.94)!,
        mixHex(colors.primaryColor, colors.backgroundColor, 0.12)!,
      ];
      for (const surface of surfaces) {
        for (const text of [primaryText, textMuted, textSubtle]) {
          expect(contrastRatio(text, surface)).toBeGreaterThanOrEqual(4.5);
        }
      }
    },
  );

  it("softens the text colour only as far as it stays readable", () => {
    // Black on white: the 75% and 60% mixes already pass and are kept as they were.
    expect(brandShades(DEFAULT_COLORS)).toMatchObject({
      textMuted: "#404040",
      textSubtle: "#666666",
    });
    // A grey text colour leaves no room: the softer shades come back to a passing grey.
    const grey = brandShades({
      primaryColor: "#0093ff",
      backgroundColor: "#fffdf5",
      textColor: "#6b7280",
    });
    expect(contrastRatio(grey.textSubtle, "#fffdf5")).toBeGreaterThanOrEqual(4.5);
  });

  it("keeps the hue of a saturated primary", () => {
    for (const primaryColor of ["#0093ff", "#ff0000", "#00ff00", "#e91e63"]) {
      const { primaryStrong } = brandShades({ ...DEFAULT_COLORS, primaryColor });
      expect(Math.abs(hueOf(primaryStrong) - hueOf(primaryColor))).toBeLessThan(2);
    }
  });

  it("treats a colour that is not #hex as the spec's default", () => {
    expect(brandShades({ ...DEFAULT_COLORS, primaryColor: "not a colour" })).toEqual(
      brandShades(DEFAULT_COLORS),
    );
  });

  it("gives the dashboard theme's values for the spec's default scheme (web/src/ui/theme.css)", () => {
    const theme = readFileSync(new URL("../web/src/ui/theme.css", import.meta.url), "utf8");
    const token = (name: string) =>
      new RegExp(`\\s${name}:\\s*(#[0-9a-f]{6});`, "i").exec(theme)?.[1];
    const { primaryStrong, primaryText } = brandShades(DEFAULT_COLORS);
    expect(token("--color-brand")).toBe(DEFAULT_COLORS.primaryColor);
    expect(token("--color-primary")).toBe(primaryStrong);
    expect(token("--color-primary-text")).toBe(primaryText);
    // The dashboard's own surfaces: its page background and soft tint differ from a portal's.
    for (const surface of ["--color-surface", "--color-background", "--color-primary-soft"]) {
      expect(contrastRatio(primaryText, token(surface)!)).toBeGreaterThanOrEqual(4.5);
    }
    expect(
      contrastRatio(token("--color-text-subtle")!, token("--color-primary-soft")!),
    ).toBeGreaterThanOrEqual(4.5);
    for (const state of ["--color-primary-hover", "--color-primary-active"]) {
      expect(contrastRatio("#ffffff", token(state)!)).toBeGreaterThanOrEqual(4.5);
    }
  });
});
