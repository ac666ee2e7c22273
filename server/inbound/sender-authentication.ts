import { domainToASCII } from "node:url";
import type { ParsedMail } from "mailparser";

/**
 * Whether a reply comes from whom its From says. The envelope sender proves nothing (anyone
 * can write a person's address, or an SRS address of it), so the proof is the relay's
 * verdict: an Authentication-Results header (RFC 8601) of the relay's own authserv-id saying
 * that DMARC passed for the From domain, or that a DKIM signature of that domain passed.
 */

/** The values of header `name`, unfolded, in the order they appear. */
export function headerValues(mail: ParsedMail, name: string): string[] {
  const key = name.toLowerCase();
  return mail.headerLines
    .filter((entry) => entry.key === key)
    .map((entry) =>
      entry.line
        .slice(entry.line.indexOf(":") + 1)
        .replace(/\r?\n(?=[ \t])/g, "")
        .trim(),
    );
}

/**
 * The address of the one From header, lower-cased; null unless there is exactly one From
 * header naming exactly one address (no group, no second address in an unquoted name, which
 * the relay's DMARC check might have read instead).
 */
export function soleFromAddress(mail: ParsedMail): string | null {
  const values = headerValues(mail, "From");
  const entries = mail.from?.value ?? [];
  if (values.length !== 1 || entries.length !== 1) return null;
  const entry = entries[0]!;
  if (entry.group || !entry.address || !/^[^@\s]+@[^@\s]+$/.test(entry.address)) return null;
  const outsideQuotes = tokens(values[0]!)
    .filter((token) => token.kind === "word")
    .map((token) => token.text)
    .join(" ");
  if (outsideQuotes.split("@").length !== 2) return null;
  return entry.address.toLowerCase();
}

export interface AuthenticationResult {
  /** The method without its version, lower-cased: dkim, dmarc, spf... */
  method: string;
  /** Lower-cased: pass, fail, none... */
  result: string;
  /** ptype.property (lower-cased) to its value as written, e.g. header.d -> example.com. */
  properties: Map<string, string>;
}

export interface AuthenticationResults {
  authservId: string;
  results: AuthenticationResult[];
}

/**
 * One Authentication-Results value: authserv-id [version], then `; method=result` each with
 * `reason=` and `ptype.property=value` (RFC 8601 section 2.2). Comments are skipped; a result
 * that does not parse is left out (it can only make a reply fail). Null without an authserv-id.
 */
export function parseAuthenticationResults(value: string): AuthenticationResults | null {
  const segments: Token[][] = [[]];
  for (const token of tokens(value)) {
    if (token.kind === ";") segments.push([]);
    else segments.at(-1)!.push(token);
  }
  const [head, ...resinfos] = segments;
  const id = head?.[0];
  if (!id || id.kind === "=") return null;
  const results: AuthenticationResult[] = [];
  for (const resinfo of resinfos) {
    const result = resultOf(resinfo);
    if (result) results.push(result);
  }
  return { authservId: id.text, results };
}

function resultOf(resinfo: Token[]): AuthenticationResult | null {
  const [method, equals, result, ...rest] = resinfo;
  if (method?.kind !== "word" || equals?.kind !== "=" || result?.kind !== "word") return null;
  const properties = new Map<string, string>();
  for (let at = 0; at < rest.length; at += 3) {
    const [key, sign, value] = [rest[at], rest[at + 1], rest[at + 2]];
    if (key?.kind !== "word" || sign?.kind !== "=" || !value || value.kind === "=") return null;
    properties.set(key.text.toLowerCase(), value.text);
  }
  return {
    method: method.text.split("/")[0]!.toLowerCase(),
    result: result.text.toLowerCase(),
    properties,
  };
}

/**
 * Whether the headers of `authservId` show the From domain authenticated: dmarc=pass with
 * header.from the From domain, or dkim=pass with header.d (or the domain of header.i)
 * aligned with it; a dmarc=fail for the domain refuses whatever DKIM says. Headers of any
 * other authserv-id are ignored: the sender may have written them.
 */
export function isAuthenticatedSender(
  authenticationResults: readonly string[],
  authservId: string,
  fromAddress: string,
): boolean {
  const fromDomain = normalizedDomain(fromAddress.slice(fromAddress.lastIndexOf("@") + 1));
  const results = authenticationResults
    .map(parseAuthenticationResults)
    .filter((header) => header?.authservId.toLowerCase() === authservId.toLowerCase())
    .flatMap((header) => header!.results);
  const dmarc = results.filter(
    (result) =>
      result.method === "dmarc" &&
      normalizedDomain(result.properties.get("header.from") ?? "") === fromDomain,
  );
  if (dmarc.some((result) => result.result === "fail")) return false;
  if (dmarc.some((result) => result.result === "pass")) return true;
  return results.some((result) => {
    if (result.method !== "dkim" || result.result !== "pass") return false;
    const identity = result.properties.get("header.i");
    const signer =
      result.properties.get("header.d") ?? identity?.slice(identity.lastIndexOf("@") + 1);
    return signer !== undefined && aligned(normalizedDomain(signer), fromDomain);
  });
}

/**
 * Relaxed alignment, simplified: the same domain, or one a subdomain of the other, so that
 * mail.example.com signs for example.com and back. Without the public suffix list a bare
 * top-level domain could look like a parent: the shorter must have two labels at least.
 */
function aligned(signer: string, from: string): boolean {
  if (!signer || !from) return false;
  if (signer === from) return true;
  const [shorter, longer] = signer.length < from.length ? [signer, from] : [from, signer];
  return shorter.includes(".") && longer.endsWith(`.${shorter}`);
}

function normalizedDomain(domain: string): string {
  const lower = domain.trim().toLowerCase().replace(/\.$/, "");
  return domainToASCII(lower) || lower;
}

interface Token {
  kind: "word" | "quoted" | "=" | ";";
  text: string;
}

/**
 * Splits a structured header value into words, quoted strings, "=" and ";", dropping
 * whitespace and comments. A quoted string inside a comment is kept whole (RFC 5322 would
 * end the comment at a ")" in it): relays write the envelope sender, quoted, into comments,
 * and a sender must not be able to close the comment and add results of their own.
 */
function tokens(value: string): Token[] {
  const found: Token[] = [];
  let at = 0;
  while (at < value.length) {
    const char = value[at]!;
    if (char === "(") {
      at = afterComment(value, at);
    } else if (char === '"') {
      const [text, end] = quoted(value, at);
      found.push({ kind: "quoted", text });
      at = end;
    } else if (char === "=" || char === ";") {
      found.push({ kind: char, text: char });
      at += 1;
    } else if (/\s/.test(char)) {
      at += 1;
    } else {
      const end = value.slice(at).search(/[\s()";=]/);
      const stop = end === -1 ? value.length : at + end;
      found.push({ kind: "word", text: value.slice(at, stop) });
      at = stop;
    }
  }
  return found;
}

/** The index after the comment opening at `start` (nested comments, quoted pairs and strings). */
function afterComment(value: string, start: number): number {
  let depth = 0;
  let at = start;
  while (at < value.length) {
    const char = value[at]!;
    if (char === "\\") at += 2;
    else if (char === '"') at = quoted(value, at)[1];
    else {
      if (char === "(") depth += 1;
      else if (char === ")" && --depth === 0) return at + 1;
      at += 1;
    }
  }
  return value.length;
}

/** The content of the quoted string opening at `start`, unescaped, and the index after it. */
function quoted(value: string, start: number): [string, number] {
  let text = "";
  let at = start + 1;
  while (at < value.length) {
    const char = value[at]!;
    if (char === "\\") {
      text += value[at + 1] ?? "";
      at += 2;
    } else if (char === '"') {
      return [text, at + 1];
    } else {
      text += char;
      at += 1;
    }
  }
  return [text, value.length];
}
