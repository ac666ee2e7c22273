import { describe, expect, it } from "vitest";
import { brandShades } from "./contrast";
import { DEFAULT_COLORS, DEFAULT_SHADES } from "./defaults";

describe("DEFAULT_SHADES", () => {
  it("are the default scheme's readable shades, as the server would work them out", () => {
    expect(DEFAULT_SHADES).toEqual(brandShades(DEFAULT_COLORS));
  });
});
