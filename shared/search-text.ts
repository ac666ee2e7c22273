/**
 * How search cuts text into words, as the database does (search_text() in the migration
 * 20261126040000_message_search): every ASCII character that is not a letter or a digit, and
 * common Unicode punctuation, separates words. Used to highlight matches in snippets.
 */
const SEPARATOR_CLASS =
  "\\u0001-\\u002f\\u003a-\\u0040\\u005b-\\u0060\\u007b-\\u007f\\u00a0\\u00a1\\u00ab\\u00b7\\u00bb\\u00bf\\u2010-\\u2027\\u2030-\\u205e\\u3000-\\u3003\\s";

export const SEARCH_SEPARATORS = new RegExp(`[${SEPARATOR_CLASS}]+`, "u");
/** One word (global: use with matchAll). */
export const SEARCH_WORD = new RegExp(`[^${SEPARATOR_CLASS}]+`, "gu");

/** What the user typed, as search_query() reads it: lower-case words, the last maybe a prefix. */
export interface SearchTerms {
  words: string[];
  /**
   * The last word matches as a prefix: it is in the text after the last double quote (an
   * input that ends with a closed "phrase" has no word being typed).
   */
  lastIsPrefix: boolean;
}

const wordsOf = (text: string) =>
  [...text.matchAll(SEARCH_WORD)].map((match) => match[0].toLowerCase());

export function searchTerms(input: string): SearchTerms {
  const segments = input.split('"');
  return {
    words: segments.flatMap(wordsOf),
    lastIsPrefix: wordsOf(segments.at(-1) ?? "").length > 0,
  };
}

/** Whether one word of a text (any case) is one the search looked for. */
export function matchesTerm(word: string, terms: SearchTerms): boolean {
  const lower = word.toLowerCase();
  const last = terms.words.at(-1);
  if (terms.lastIsPrefix && last !== undefined && lower.startsWith(last)) return true;
  return terms.words.includes(lower);
}
