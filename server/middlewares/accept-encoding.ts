/** The encodings the built web app is stored in (scripts/lib/precompress.mjs), best first. */
export const STORED_ENCODINGS = ["br", "gzip"] as const;
export type StoredEncoding = (typeof STORED_ENCODINGS)[number];

/**
 * The stored encodings the request's Accept-Encoding allows, in our order of preference
 * (br, then gzip), whatever the client's q-values among the accepted ones: every browser
 * lists gzip first with the same weight, and brotli is the smaller. "q=0" refuses an
 * encoding, "*" stands for any not named; no header means the file as it is.
 */
export function acceptedEncodings(header: string | undefined): StoredEncoding[] {
  if (!header) return [];
  const quality = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    const value = q ? Number(q.slice(2)) : 1;
    quality.set(name, Number.isFinite(value) ? value : 0);
  }
  const wildcard = quality.get("*") ?? 0;
  return STORED_ENCODINGS.filter((encoding) => (quality.get(encoding) ?? wildcard) > 0);
}
