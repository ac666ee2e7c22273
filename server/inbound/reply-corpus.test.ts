import { describe, expect, it } from "vitest";
import { CORPUS, corpusMail, normalizeText } from "../../tests/fixtures/inbound-mail/corpus/corpus";
import { parseReply } from "./parse-reply";

describe("replies from every mail client (tests/fixtures/inbound-mail/corpus)", () => {
  it("holds at least 30 public samples", () => {
    expect(
      CORPUS.filter((reply) => reply.origin === "public sample").length,
    ).toBeGreaterThanOrEqual(30);
  });

  for (const reply of CORPUS) {
    it(`keeps only the new text of ${reply.client} (${reply.file})`, async () => {
      const parsed = await parseReply(corpusMail(reply.file));
      expect(normalizeText(parsed.text)).toBe(normalizeText(reply.expected));
    });
  }
});
