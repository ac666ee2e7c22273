import { describe, expect, it } from "vitest";
import { formatZoom, MAX_ZOOM, MIN_ZOOM, zoomIn, zoomOut } from "./zoom-steps";

describe("preview zoom steps", () => {
  it("goes to the next round step from any level, fitted ones included", () => {
    expect(zoomIn(1)).toBe(1.25);
    expect(zoomOut(1)).toBe(0.75);
    expect(zoomIn(0.62)).toBe(0.75);
    expect(zoomOut(0.62)).toBe(0.5);
    expect(zoomIn(0.7499)).toBe(1);
  });

  it("stops at the ends", () => {
    expect(zoomIn(MAX_ZOOM)).toBe(MAX_ZOOM);
    expect(zoomOut(MIN_ZOOM)).toBe(MIN_ZOOM);
    expect(zoomOut(0.05)).toBe(MIN_ZOOM);
  });

  it("shows whole percents", () => {
    expect(formatZoom(0.6666)).toBe("67%");
    expect(formatZoom(1)).toBe("100%");
  });
});
