import rangeParser from "range-parser";

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/** `bytes=-N`: the last N bytes. */
const SUFFIX_RANGE = /^bytes=\s*-\s*(\d+)\s*$/;

/** The Range of a GET, unless If-Range names another version (then the whole file). */
export function requestedRange(
  request: { get(field: string): string },
  etag: string,
  size: number,
): ByteRange | "unsatisfiable" | null {
  const header = request.get("Range");
  if (!header) return null;
  const ifRange = request.get("If-Range");
  if (ifRange && ifRange !== etag) return null;
  return parseRange(header, size);
}

/**
 * The one byte range a Range header asks for (read by range-parser), "unsatisfiable" (416),
 * or null: the header is ignored and the whole file served, as RFC 9110 allows, for other
 * units, several ranges (they would need multipart/byteranges) and malformed or invalid ones.
 */
export function parseRange(header: string, size: number): ByteRange | "unsatisfiable" | null {
  if (header.includes(",")) return null;
  const ranges = rangeParser(size, header);
  if (ranges === -2) return null;
  if (ranges === -1) return refusedRange(header, size);
  const [range] = ranges;
  return ranges.type === "bytes" && range ? { start: range.start, end: range.end } : null;
}

/**
 * range-parser answers -1 to three cases RFC 9110 (14.1.1, 14.1.2) tells apart: a suffix
 * longer than the file is the whole file (range-parser 1.3.0 refuses it; fixed upstream in
 * jshttp/range-parser#66); a range written backwards, or starting past any possible size, is
 * invalid and ignored; only a range starting at or past the end is unsatisfiable.
 */
function refusedRange(header: string, size: number): ByteRange | "unsatisfiable" | null {
  const suffix = SUFFIX_RANGE.exec(header);
  if (suffix) {
    return Number(suffix[1]) > 0 && size > 0 ? { start: 0, end: size - 1 } : "unsatisfiable";
  }
  // As if the file were endless: still refused means the range itself is invalid.
  const endless = rangeParser(Number.MAX_SAFE_INTEGER, header);
  return typeof endless === "number" || endless.type !== "bytes" ? null : "unsatisfiable";
}
