import { parseHex } from "../../../shared/contrast";

/**
 * Any colour the browser understands ("red", "rgb(0 147 255)", "#0093ff") as #rrggbb, so the
 * shared contrast code can work with what an owner typed (the settings accept any text);
 * null when it is not an opaque colour.
 */
export function toHexColor(value: string): string | null {
  const hex = parseHex(value);
  if (hex) return `#${hex.map((channel) => channel.toString(16).padStart(2, "0")).join("")}`;
  const context = document.createElement("canvas").getContext("2d");
  if (!context) return null;
  // The 2D context turns any valid CSS colour into #rrggbb (opaque) or rgba(...), and keeps
  // the previous value for what it cannot parse: two different starting values tell them apart.
  const read = (start: string) => {
    context.fillStyle = start;
    context.fillStyle = value;
    return String(context.fillStyle);
  };
  const first = read("#000000");
  if (first !== read("#ffffff")) return null;
  return /^#[0-9a-f]{6}$/i.test(first) ? first : null;
}
