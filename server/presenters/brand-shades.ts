import { type BrandColors, type BrandShades, brandShades } from "../../shared/contrast";

/** Schemes seen lately: a workspace's clients all share their owner's, lists repeat it. */
const known = new Map<string, BrandShades>();
const KEPT = 1000;

/** brandShades, worked out once per scheme (the search of shades takes a few hundred steps). */
export function shadesOf(colors: BrandColors): BrandShades {
  const key = `${colors.primaryColor} ${colors.backgroundColor} ${colors.textColor}`;
  let shades = known.get(key);
  if (!shades) {
    shades = brandShades(colors);
    if (known.size >= KEPT) known.clear();
    known.set(key, shades);
  }
  return shades;
}
