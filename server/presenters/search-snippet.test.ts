import { describe, expect, it } from "vitest";
import { searchTerms } from "../../shared/search-text";
import { searchSnippet } from "./search-snippet";

const snippet = (text: string, q: string, options?: { before: number; length: number }) =>
  searchSnippet(text, searchTerms(q), options);

describe("searchSnippet", () => {
  it("marks whole words, and the last word as a prefix, in any case", () => {
    expect(snippet("The Invoice and the invoices, and Invo.", "the invo")).toEqual([
      { text: "The", match: true },
      { text: " ", match: false },
      { text: "Invoice", match: true },
      { text: " and ", match: false },
      { text: "the", match: true },
      { text: " ", match: false },
      { text: "invoices", match: true },
      { text: ", and ", match: false },
      { text: "Invo", match: true },
      { text: ".", match: false },
    ]);
    // "the" is whole (not the last word): "them" does not match; "draft" as the last does.
    expect(snippet("them drafts", "the draft")).toEqual([
      { text: "them ", match: false },
      { text: "drafts", match: true },
    ]);
  });

  it("ends a closed phrase without a prefix, and cuts file names into words", () => {
    expect(snippet("invoices invoice", '"invoice"')).toEqual([
      { text: "invoices ", match: false },
      { text: "invoice", match: true },
    ]);
    expect(snippet("Invoice_2026-7.pdf", "2026 pd")).toEqual([
      { text: "Invoice_", match: false },
      { text: "2026", match: true },
      { text: "-7.", match: false },
      { text: "pdf", match: true },
    ]);
    expect(snippet("Café CRÈME", "crème café")).toEqual([
      { text: "Café", match: true },
      { text: " ", match: false },
      { text: "CRÈME", match: true },
    ]);
  });

  it("starts a few words before a late match and ends at a word, with ellipses", () => {
    const text =
      "one two three four five six seven eight nine ten needle eleven twelve thirteen fourteen";
    const parts = snippet(text, "needle", { before: 10, length: 30 });
    expect(parts).toEqual([
      { text: "…nine ten ", match: false },
      { text: "needle", match: true },
      { text: " eleven twelve…", match: false },
    ]);
  });

  it("makes line breaks and runs of spaces single spaces, and keeps markup as text", () => {
    expect(snippet("<b>hello</b>\n\n  <script>x</script>", "script")).toEqual([
      { text: "<b>hello</b> <", match: false },
      { text: "script", match: true },
      { text: ">x</", match: false },
      { text: "script", match: true },
      { text: ">", match: false },
    ]);
  });

  it("shows the start of the text when no word matches", () => {
    expect(snippet("nothing here to see", "absent")).toEqual([
      { text: "nothing here to see", match: false },
    ]);
    expect(
      snippet(`${"a".repeat(10)} ${"b".repeat(10)}`, "zzz", { before: 5, length: 12 }),
    ).toEqual([{ text: "aaaaaaaaaa…", match: false }]);
    expect(snippet("", "x")).toEqual([]);
  });
});
