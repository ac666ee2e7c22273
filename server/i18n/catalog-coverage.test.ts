import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import englishErrors from "../../shared/locales/en/errors.json";

/**
 * i18next-parser reads a text only as the first argument of a listed function, and not inside
 * the arguments of another listed call (`conflict(a ? msg("…") : msg("…"))` is missed): every
 * text the server writes this way must be a key of the errors catalog, or it would answer in
 * English whatever the reader's language.
 */
const HELPERS =
  /\b(?:msg|badRequest|unauthorized|paymentRequired|forbidden|notFound|conflict|gone|payloadTooLarge|unprocessable|tooManyRequests|badGateway)\(\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/g;

const root = path.resolve(import.meta.dirname, "../..");
const sources = ["server", "shared"].flatMap((folder) =>
  readdirSync(path.join(root, folder), { recursive: true, encoding: "utf8" })
    .map((file) => path.join(folder, file))
    .filter(
      (file) =>
        file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.startsWith("server/mail/"),
    ),
);

/** The text of a JavaScript string literal, double- or single-quoted. */
function literalText(literal: string): string {
  if (literal.startsWith('"')) return JSON.parse(literal) as string;
  const inner = literal.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"');
  return JSON.parse(`"${inner}"`) as string;
}

describe("the errors catalog", () => {
  it("holds every text the server answers with", () => {
    const keys = new Set(Object.keys(englishErrors).map((key) => key.replace(/_(one|other)$/, "")));
    const missing = sources.flatMap((file) =>
      [...readFileSync(path.join(root, file), "utf8").matchAll(HELPERS)]
        .map((match) => literalText(match[1]!))
        .filter((text) => !keys.has(text))
        .map((text) => `${file}: ${text}`),
    );
    expect(sources.length).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});
