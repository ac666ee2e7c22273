import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Language } from "../shared/i18n/languages";
import type { HttpError } from "./errors";
import { translateMessage } from "./i18n/translator";
import { parseOrThrow } from "./validate";

/** The {message} the caller reads: the error's English key with its values, in `language`. */
const messageOf = (schema: z.ZodType, value: unknown, language: Language = "en") => {
  try {
    parseOrThrow(schema, value);
  } catch (error) {
    const { message, values } = error as HttpError;
    return translateMessage(language, message, values);
  }
  return "no error";
};

describe("parseOrThrow messages", () => {
  it("names the length limit when a check has no message of its own", () => {
    const schema = z.strictObject({ title: z.string().min(3).max(10), note: z.string().min(1) });
    expect(messageOf(schema, { title: "x".repeat(11), note: "n" })).toBe(
      "title must be at most 10 characters",
    );
    expect(messageOf(schema, { title: "xy", note: "n" })).toBe(
      "title must be at least 3 characters",
    );
    expect(messageOf(schema, { title: "xyz", note: "" })).toBe("note is required");
    expect(messageOf(schema, { title: "x".repeat(11), note: "n" }, "de")).toBe(
      "title darf höchstens 10 Zeichen lang sein",
    );
  });

  it("names unknown fields, in the reader's language", () => {
    const schema = z.strictObject({ name: z.string() });
    expect(messageOf(schema, { name: "a", colour: "red" })).toBe("Unknown field: colour");
    expect(messageOf(schema, { name: "a", colour: "red" }, "fr")).toBe("Champ inconnu : colour");
  });

  it("keeps a schema's own message", () => {
    const schema = z.strictObject({ name: z.string().max(2, "Name is too long") });
    expect(messageOf(schema, { name: "abc" })).toBe("Name is too long");
  });
});
