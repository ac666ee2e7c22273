import type { SavedReply } from "../api/saved-replies";

/** Longest text after a slash that is still read as a search for a saved reply. */
const MAX_QUERY_LENGTH = 60;

/** A slash typed at the start of the field or after whitespace, and what follows it up to the caret. */
export interface SlashQuery {
  /** Where the slash is. */
  start: number;
  /** The text typed after it, up to the caret. */
  query: string;
}

/**
 * The slash search the caret is in: the nearest slash before the caret that starts the field
 * or follows whitespace, with no line break since (`and/or` and a path are no searches).
 */
export function slashQueryAt(text: string, caret: number): SlashQuery | null {
  const before = text.slice(0, caret);
  const start = before.lastIndexOf("/");
  if (start < 0 || caret - start - 1 > MAX_QUERY_LENGTH) return null;
  if (start > 0 && !/\s/.test(before.charAt(start - 1))) return null;
  const query = before.slice(start + 1);
  if (query.includes("\n") || query.startsWith(" ")) return null;
  return { start, query };
}

/**
 * The replies that match a search, best first: titles that start with it, then titles that
 * contain it, then texts that do (each group keeps the list's order: by title).
 */
export function matchSavedReplies(replies: readonly SavedReply[], query: string): SavedReply[] {
  const wanted = query.trim().toLocaleLowerCase();
  if (!wanted) return [...replies];
  const rank = (reply: SavedReply) => {
    const title = reply.title.toLocaleLowerCase();
    if (title.startsWith(wanted)) return 0;
    if (title.includes(wanted)) return 1;
    return reply.text.toLocaleLowerCase().includes(wanted) ? 2 : 3;
  };
  return replies
    .map((reply) => ({ reply, rank: rank(reply) }))
    .filter((entry) => entry.rank < 3)
    .sort((a, b) => a.rank - b.rank)
    .map((entry) => entry.reply);
}
