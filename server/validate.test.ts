import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseOrThrow } from "./validate";

const messageOf = (schema: z.ZodType, value: unknown) => {
  try {
    parseOrThrow(schema, value);
  } catch (error) {
    return (error as Error).message;
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
  });

  it("keeps a schema's own message", () => {
    const schema = z.strictObject({ name: z.string().max(2, "Name is too long") });
    expect(messageOf(schema, { name: "abc" })).toBe("Name is too long");
  });
});
