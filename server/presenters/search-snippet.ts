import type { SnippetPart } from "../../shared/schemas/search";
import { matchesTerm, SEARCH_WORD, type SearchTerms } from "../../shared/search-text";

export interface SnippetOptions {
  /** At most this many characters of the text before the first match. */
  before: number;
  /** At most this many characters of the text in all. */
  length: number;
}

const DEFAULTS: SnippetOptions = { before: 50, length: 160 };
const ELLIPSIS = "…";

/**
 * The match in context: the text (its line breaks and runs of spaces made single spaces)
 * from a few words before the first matching word, cut at word boundaries, as parts that
 * matched or not. Plain text: the UI shows each part as a text node (nothing is HTML, so
 * nothing is escaped here). Without a matching word (a phrase cut by punctuation, say), the
 * start of the text.
 */
export function searchSnippet(
  text: string,
  terms: SearchTerms,
  options: SnippetOptions = DEFAULTS,
): SnippetPart[] {
  const flat = text.replace(/\s+/g, " ").trim();
  const words = [...flat.matchAll(SEARCH_WORD)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    match: matchesTerm(match[0], terms),
  }));
  const first = words.find((word) => word.match);

  let start = 0;
  if (first && first.start > options.before) {
    // From the first word that starts within `before` characters of the match.
    start = words.find((word) => word.start >= first.start - options.before)?.start ?? first.start;
  }
  let end = Math.min(flat.length, start + options.length);
  if (end < flat.length) {
    // Not in the middle of a word: back to the end of the last word that fits.
    const lastWhole = words.filter((word) => word.end <= end && word.start >= start).at(-1);
    if (lastWhole && lastWhole.end > start) end = lastWhole.end;
  }

  const parts: SnippetPart[] = [];
  const push = (value: string, match: boolean) => {
    if (!value) return;
    const previous = parts.at(-1);
    if (previous && previous.match === match && !match) previous.text += value;
    else parts.push({ text: value, match });
  };
  if (start > 0) push(ELLIPSIS, false);
  let at = start;
  for (const word of words) {
    if (!word.match || word.start < start || word.end > end) continue;
    push(flat.slice(at, word.start), false);
    push(flat.slice(word.start, word.end), true);
    at = word.end;
  }
  push(flat.slice(at, end), false);
  if (end < flat.length) push(ELLIPSIS, false);
  return parts;
}
