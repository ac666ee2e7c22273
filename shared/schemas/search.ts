import { z } from "zod";
import { cleanSingleLineText } from "./text";
import { msg } from "../i18n/msg";

export const SEARCH_QUERY_MAX_LENGTH = 200;
export const SEARCH_PAGE_SIZE = 20;
export const SEARCH_PAGE_MAX = 50;

/**
 * Query of GET /api/search: the words (a "quoted phrase" matches as a phrase, the last word
 * as a prefix), optionally one conversation, the page size, and `before`, the nextCursor of
 * the page before (older results).
 */
export const searchQuery = z.object({
  q: z
    .string({ error: msg("Type something to search for") })
    .overwrite(cleanSingleLineText)
    .trim()
    .min(1, msg("Type something to search for"))
    .max(SEARCH_QUERY_MAX_LENGTH, msg("Searches are limited to 200 characters")),
  /** One conversation (an id that is not the caller's, malformed included, answers 404). */
  clientId: z.string().optional(),
  limit: z.coerce
    .number({ error: msg("limit must be a number") })
    .int(msg("limit must be a whole number"))
    .min(1, msg("limit must be at least 1"))
    .max(SEARCH_PAGE_MAX, msg("limit must be at most 50"))
    .default(SEARCH_PAGE_SIZE),
  before: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, msg("before must be the nextCursor of a search answer"))
    .optional(),
});
export type SearchQuery = z.infer<typeof searchQuery>;

/** A piece of a result's snippet: the text as it is (never HTML), and whether it matched. */
export const snippetPartSchema = z.strictObject({ text: z.string(), match: z.boolean() });
export type SnippetPart = z.infer<typeof snippetPartSchema>;

export const searchResultSchema = z.strictObject({
  messageId: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  /** The message's place in the conversations (newer is larger). */
  seq: z.number(),
  createdAt: z.string(),
  senderRole: z.enum(["owner", "client"]),
  senderName: z.string(),
  /** 'file': a file message (the snippet is from its name); 'message': text. */
  kind: z.enum(["message", "file"]),
  fileName: z.string().nullable(),
  /** The match in context: a few words either side, cut with an ellipsis. */
  snippet: z.array(snippetPartSchema),
  /** Who wrote it, by their own name (as in a message: its `authorName`); always sent. */
  authorName: z.string().optional(),
  /** An internal note (issue 26) is found by the staff only, and marked as one. */
  visibility: z.enum(["client", "internal"]).optional(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/** Newest first; nextCursor (the `before` of the next, older page) or null at the end. */
export const searchResponseSchema = z.strictObject({
  results: z.array(searchResultSchema),
  nextCursor: z.string().nullable(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
