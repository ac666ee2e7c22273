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

export interface TextFieldOptions {
  /** How the field is named in messages, e.g. "Full name". */
  label: string;
  /** At most this many characters (UTF-16 code units, as zod and the web app count). */
  max: number;
  /** Defaults: "<label> is required" and "<label> must be at most <max> characters". */
  requiredMessage?: string;
  tooLongMessage?: string;
}

function messages(options: TextFieldOptions) {
  return {
    required: options.requiredMessage ?? `${options.label} is required`,
    tooLong: options.tooLongMessage ?? `${options.label} must be at most ${options.max} characters`,
  };
}

/** A required one-line field (names): cleaned, trimmed, not empty, at most `max` characters. */
export function singleLineText(options: TextFieldOptions) {
  const text = messages(options);
  return z
    .string({ error: text.required })
    .overwrite(cleanSingleLineText)
    .trim()
    .min(1, text.required)
    .max(options.max, text.tooLong);
}

/** An optional one-line field (company name): like singleLineText but may be empty. */
export function optionalSingleLineText(options: TextFieldOptions) {
  const text = messages(options);
  return z
    .string({ error: `${options.label} must be text` })
    .overwrite(cleanSingleLineText)
    .trim()
    .max(options.max, text.tooLong);
}

/**
 * Multi-line text (messages, comments, reasons): cleaned and at most `max` characters. Not
 * trimmed here: callers decide (a message keeps its inner layout; emptiness is checked trimmed).
 */
export function multiLineText(options: TextFieldOptions) {
  const text = messages(options);
  return z
    .string({ error: text.required })
    .overwrite(cleanMultiLineText)
    .max(options.max, text.tooLong);
}
