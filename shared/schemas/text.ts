import { z } from "zod";

/**
 * Every free-text field of the API goes through one of the two schemas below, so that no
 * control character reaches the database (PostgreSQL refuses NUL in text) or another person's
 * screen. Invisible characters are removed rather than refused: a user who pasted one cannot
 * see what to fix. A field that is empty once cleaned counts as empty.
 */

/** Control characters (C0, DEL, C1) other than tab and line feed. */
const MULTI_LINE_UNWANTED = /(?![\t\n])\p{Cc}/gu;
/** Line and paragraph breaks, including Unicode's own, and tabs: they become one space. */
const BREAKS = /[\t\n\r\v\f\u0085\u2028\u2029]+/g;
/** Controls, and the direction overrides and isolates that make a name read backwards. */
const SINGLE_LINE_UNWANTED = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;

/** Message text: keeps line feeds and tabs (CR LF and lone CR become LF); removes other controls. */
export function cleanMultiLineText(value: string): string {
  return value.replace(/\r\n?/g, "\n").replace(MULTI_LINE_UNWANTED, "");
}

/** A name or other one-line text: breaks and tabs become a space; other controls are removed. */
export function cleanSingleLineText(value: string): string {
  return value.replace(BREAKS, " ").replace(SINGLE_LINE_UNWANTED, "");
}

/**
 * The messages are whole English sentences marked with msg() where the field is declared
 * ("Full name is required"), each a key of the errors catalog: a sentence put together from
 * a label here could not be translated (issue 29).
 */
export interface TextFieldOptions {
  /** At most this many characters (UTF-16 code units, as zod and the web app count). */
  max: number;
  /** When the value is missing, not text, or (one-line fields) empty once cleaned. */
  requiredMessage: string;
  /** When the value is longer than `max`. */
  tooLongMessage: string;
}

/** A required one-line field (names): cleaned, trimmed, not empty, at most `max` characters. */
export function singleLineText(options: TextFieldOptions) {
  return z
    .string({ error: options.requiredMessage })
    .overwrite(cleanSingleLineText)
    .trim()
    .min(1, options.requiredMessage)
    .max(options.max, options.tooLongMessage);
}

/**
 * An optional one-line field (company name): like singleLineText but may be empty;
 * `requiredMessage` answers a value that is not text.
 */
export function optionalSingleLineText(options: TextFieldOptions) {
  return z
    .string({ error: options.requiredMessage })
    .overwrite(cleanSingleLineText)
    .trim()
    .max(options.max, options.tooLongMessage);
}

/**
 * Multi-line text (messages, comments, reasons): cleaned and at most `max` characters. Not
 * trimmed here: callers decide (a message keeps its inner layout; emptiness is checked trimmed).
 */
export function multiLineText(options: TextFieldOptions) {
  return z
    .string({ error: options.requiredMessage })
    .overwrite(cleanMultiLineText)
    .max(options.max, options.tooLongMessage);
}
