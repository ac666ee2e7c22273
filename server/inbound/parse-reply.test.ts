import { describe, expect, it } from "vitest";
import {
  appleMailReply,
  gmailReply,
  htmlOnlyReply,
  inlineImage,
  outlookReply,
  outOfOfficeReply,
  rawMail,
} from "../../tests/fixtures/inbound-mail/replies";
import { hugePng } from "../../tests/support/images";
import { minimalPdf } from "../../tests/support/pdf";
import { replyContent } from "../commands/receive-email-reply";
import { parseReply } from "./parse-reply";

const from = "Carla Client <Carla@Example.com>";
const to = "reply+0123456789abcdef0123456789abcdef@reply.clientdesk.test";
const png = hugePng(4, 4);

describe("the new text of a reply", () => {
  it("keeps a Gmail reply's text without the quoted notification or the signature", async () => {
    const reply = await parseReply(
      await rawMail(
        gmailReply({
          from,
          to,
          text: "Sounds good, Friday works.\nCan you send the invoice too?",
          signature: "Carla Client\nDesigner, Acme Ltd\n+1 555 0100",
        }),
      ),
    );
    expect(reply.text).toBe("Sounds good, Friday works.\nCan you send the invoice too?");
    expect(reply.from).toBe("carla@example.com");
    expect(reply.automatic).toBeNull();
    expect(reply.messageId).toMatch(/^<.+@mail\.example>$/);
  });

  it("removes Outlook's From/Sent header block, what follows it, and the sign-off", async () => {
    const reply = await parseReply(
      await rawMail(
        outlookReply({
          from,
          to,
          text: "Yes, please send the invoice.",
          signature: "Best regards\nCarla Client\nAcme Ltd",
        }),
      ),
    );
    expect(reply.text).toBe("Yes, please send the invoice.");
  });

  it("removes Apple Mail's 'Sent from my iPhone' and its cite quote", async () => {
    const reply = await parseReply(
      await rawMail(appleMailReply({ from, to, text: "Here it is." })),
    );
    expect(reply.text).toBe("Here it is.");
  });

  it("reads an HTML-only reply up to its quoted history", async () => {
    const reply = await parseReply(
      await rawMail(htmlOnlyReply({ from, to, text: "Approved from my phone.\nThanks a lot!" })),
    );
    expect(reply.text).toBe("Approved from my phone.\nThanks a lot!");
  });

  it("reads an HTML-only Gmail reply without its gmail_quote", async () => {
    const { text: _text, ...htmlOnly } = gmailReply({ from, to, text: "Only HTML here." });
    const reply = await parseReply(await rawMail(htmlOnly));
    expect(reply.text).toBe("Only HTML here.");
  });

  it("cuts a text longer than a message to the message limit, ending in …", () => {
    const long = "a".repeat(12_000);
    const content = replyContent(long);
    expect(content).toHaveLength(10_000);
    expect(content.endsWith("…")).toBe(true);
    expect(replyContent("  short \r\n text\u0007 ")).toBe("short \n text");
  });
});

describe("attachments of a reply", () => {
  it("keeps attached files and leaves out images embedded in the HTML", async () => {
    const reply = await parseReply(
      await rawMail(
        outlookReply({
          from,
          to,
          text: "The signed contract and a photo.",
          attachments: [
            { filename: "contract.pdf", content: minimalPdf(), contentType: "application/pdf" },
            { filename: "photo.png", content: png, contentType: "image/png" },
            inlineImage(png),
          ],
        }),
      ),
    );
    expect(reply.attachments.map((file) => file.filename)).toEqual(["contract.pdf", "photo.png"]);
    expect(reply.attachments[0]?.content.equals(minimalPdf())).toBe(true);
  });

  it("keeps Apple Mail's inline-disposition attachments (they are files, not embedded images)", async () => {
    const reply = await parseReply(
      await rawMail(
        appleMailReply({
          from,
          to,
          text: "Contract attached.",
          attachments: [
            {
              filename: "contract.pdf",
              content: minimalPdf(),
              contentType: "application/pdf",
              contentDisposition: "inline",
            },
          ],
        }),
      ),
    );
    expect(reply.text).toBe("Contract attached.");
    expect(reply.attachments.map((file) => file.filename)).toEqual(["contract.pdf"]);
  });
});

describe("automatic mail", () => {
  for (const style of ["auto-submitted", "x-autoreply", "subject", "precedence"] as const) {
    it(`recognises an out-of-office answer (${style})`, async () => {
      const reply = await parseReply(
        await rawMail(outOfOfficeReply({ from, to, style, text: "I am away until Monday." })),
      );
      expect(reply.automatic).not.toBeNull();
    });
  }

  it("takes Auto-Submitted: no as a person's mail", async () => {
    const reply = await parseReply(
      await rawMail(
        gmailReply({ from, to, text: "Typed by me.", headers: { "Auto-Submitted": "no" } }),
      ),
    );
    expect(reply.automatic).toBeNull();
  });

  it("recognises the product's own mail by its header", async () => {
    const reply = await parseReply(
      await rawMail(gmailReply({ from, to, text: "Loop?", headers: { "X-ClientDesk-Mail": "1" } })),
    );
    expect(reply.automatic).toBe("the product's own mail");
  });
});
