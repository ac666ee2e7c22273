import { describe, expect, it } from "vitest";
import { contrastRatio } from "./colors";

describe("contrastRatio", () => {
  it("gives WCAG's 21:1 for black on white and 1:1 for equal colours", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#fff", "#FFFFFF")).toBeCloseTo(1, 5);
  });

  it("matches known pairs on both sides of 4.5:1", () => {
    // #767676 on white is the classic lightest grey that passes AA; #777777 fails.
    expect(contrastRatio("#767676", "#ffffff")!).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio("#ffffff", "#777777")!).toBeLessThan(4.5);
    expect(contrastRatio("#0093ff", "#ffffff")).toBeCloseTo(3.17, 2);
  });

  it("is null for what is not a colour", () => {
    expect(contrastRatio("red", "#ffffff")).toBeNull();
    expect(contrastRatio("#12345", "#ffffff")).toBeNull();
  });
});
