import { describe, expect, it } from "vitest";
import type { SavedReply } from "../api/saved-replies";
import { matchSavedReplies, slashQueryAt } from "./slash-query";

const at = (text: string) => slashQueryAt(text, text.length);

describe("slashQueryAt", () => {
  it("reads a slash at the start or after whitespace, up to the caret", () => {
    expect(at("/")).toEqual({ start: 0, query: "" });
    expect(at("/inv")).toEqual({ start: 0, query: "inv" });
    expect(at("Hello /invoice sent")).toEqual({ start: 6, query: "invoice sent" });
    expect(at("Line one\n/th")).toEqual({ start: 9, query: "th" });
    expect(slashQueryAt("/inv and more", 4)).toEqual({ start: 0, query: "inv" });
  });

  it("leaves slashes inside words, paths and finished lines alone", () => {
    expect(at("and/or")).toBeNull();
    expect(at("see https://x.test/a")).toBeNull();
    expect(at("/one\ntwo")).toBeNull();
    expect(at("/ spaced")).toBeNull();
    expect(at("no slash")).toBeNull();
    expect(at(`/${"x".repeat(61)}`)).toBeNull();
  });
});

const reply = (title: string, text = ""): SavedReply => ({
  id: title,
  title,
  text,
  createdByName: null,
  createdAt: "",
  updatedAt: "",
  canChange: true,
});

describe("matchSavedReplies", () => {
  const replies = [
    reply("After hours", "We are closed, back at 9"),
    reply("Invoice sent", "The invoice is on its way"),
    reply("Re: invoice", "About your invoice"),
    reply("Welcome", "Welcome aboard"),
  ];

  it("ranks title prefixes, then titles, then texts, and ignores case", () => {
    expect(matchSavedReplies(replies, "INV").map((r) => r.title)).toEqual([
      "Invoice sent",
      "Re: invoice",
    ]);
    expect(matchSavedReplies(replies, "closed").map((r) => r.title)).toEqual(["After hours"]);
    expect(matchSavedReplies(replies, "w").map((r) => r.title)).toEqual([
      "Welcome",
      "After hours",
      "Invoice sent",
    ]);
    expect(matchSavedReplies(replies, "")).toHaveLength(4);
    expect(matchSavedReplies(replies, "zebra")).toEqual([]);
  });
});
