import type { PseudoLocale } from "./pseudo-locales";

/**
 * Pseudo-locales for layout tests (issue 29): every text English but accented and 40%
 * longer ("long"), or written right to left ("rtl"). They show a text that skipped
 * translation (it stays plain) and a layout that clips longer words or breaks when mirrored.
 */

const ACCENTED: Record<string, string> = {
  a: "á",
  b: "ƀ",
  c: "ç",
  d: "ð",
  e: "é",
  f: "ƒ",
  g: "ĝ",
  h: "ĥ",
  i: "í",
  j: "ĵ",
  k: "ķ",
  l: "ļ",
  m: "ɱ",
  n: "ñ",
  o: "ó",
  p: "þ",
  q: "ǫ",
  r: "ŕ",
  s: "š",
  t: "ţ",
  u: "ú",
  v: "ṽ",
  w: "ŵ",
  x: "ẋ",
  y: "ý",
  z: "ž",
  A: "Á",
  B: "Ɓ",
  C: "Ç",
  D: "Ð",
  E: "É",
  F: "Ƒ",
  G: "Ĝ",
  H: "Ĥ",
  I: "Í",
  J: "Ĵ",
  K: "Ķ",
  L: "Ļ",
  M: "Ṁ",
  N: "Ñ",
  O: "Ó",
  P: "Þ",
  Q: "Ǫ",
  R: "Ŕ",
  S: "Š",
  T: "Ţ",
  U: "Ú",
  V: "Ṽ",
  W: "Ŵ",
  X: "Ẋ",
  Y: "Ý",
  Z: "Ž",
};

/** Letters accented, then padded with "~" words to 140% of the length (tags kept as they are). */
export function pseudoLong(text: string): string {
  if (!text.trim()) return text;
  // <1>…</1> are Trans components' placeholders, <strong>…</strong> StrongText's: their tag
  // names stay readable, or the tags would show as text.
  const accented = text.replace(
    /<\/?(?:\d+|[a-z]+)\s*\/?>|[A-Za-z]/g,
    (part) => ACCENTED[part] ?? part,
  );
  const extra = Math.max(1, Math.round(text.length * 0.4));
  const padding = "~"
    .repeat(extra)
    .replace(/(.{6})/g, "$1 ")
    .trim();
  return `${accented} ${padding}`;
}

/** Written right to left: the right-to-left override makes every letter run the other way. */
export function pseudoRtl(text: string): string {
  if (!text.trim()) return text;
  return `\u202e${text}\u202c`;
}

export function pseudoText(locale: PseudoLocale, text: string): string {
  return locale === "long" ? pseudoLong(text) : pseudoRtl(text);
}
