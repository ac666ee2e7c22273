import { describe, expect, it } from "vitest";
import { parseReply } from "./parse-reply";
import { decodeQuotedPrintable, textOf } from "./text-parts";

const big5 = (hex: string) => Buffer.from(hex.replace(/\s+/g, ""), "hex");
/** "你好，謝謝" in Big5. */
const NI_HAO_BIG5 = big5("A7 41 A6 6E A1 41 C1 C2 C1 C2");

function mail(headers: string[], body: Buffer | string): Buffer {
  return Buffer.concat([
    Buffer.from(
      [
        "From: Carla Client <carla@example.com>",
        "To: reply+0123456789abcdef0123456789abcdef@reply.clientdesk.test",
        "Subject: =?UTF-8?Q?R=C3=A9ponse?=",
        "Message-ID: <text-parts@example.com>",
        "MIME-Version: 1.0",
        ...headers,
        "",
        "",
      ].join("\r\n"),
    ),
    Buffer.isBuffer(body) ? body : Buffer.from(body, "latin1"),
  ]);
}

describe("reading a reply's text whatever its headers say", () => {
  it("believes a charset that is right (Big5 text declared Big5)", async () => {
    const reply = await parseReply(
      mail(
        ["Content-Type: text/plain; charset=big5", "Content-Transfer-Encoding: 8bit"],
        NI_HAO_BIG5,
      ),
    );
    expect(reply.text).toBe("你好，謝謝");
  });

  it("reads undeclared 8-bit text as windows-1252, not as broken UTF-8", async () => {
    const reply = await parseReply(
      mail(
        ["Content-Type: text/plain", "Content-Transfer-Encoding: 8bit"],
        "Merci, c'est not\xe9 \x96 \xe0 jeudi.",
      ),
    );
    expect(reply.text).toBe("Merci, c'est noté – à jeudi.");
  });

  it("reads ISO-8859-1 declared over UTF-8 as UTF-8", () => {
    expect(textOf(Buffer.from("déjà vu", "utf8"), "iso-8859-1")).toBe("déjà vu");
  });

  it("keeps the headers and a text attachment's bytes as they were sent", async () => {
    const boundary = "b1";
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Type: text/plain; charset=big5\r\n\r\nSee the notes.\r\n` +
          `--${boundary}\r\nContent-Type: text/plain; charset=big5\r\n` +
          `Content-Disposition: attachment; filename="notes.txt"\r\n\r\n`,
      ),
      NI_HAO_BIG5,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const reply = await parseReply(
      mail([`Content-Type: multipart/mixed; boundary="${boundary}"`], body),
    );
    expect(reply.text).toBe("See the notes.");
    expect(reply.messageId).toBe("<text-parts@example.com>");
    expect(reply.from).toBe("carla@example.com");
    expect(reply.attachments).toHaveLength(1);
    expect(reply.attachments[0]!.filename).toBe("notes.txt");
    expect(reply.attachments[0]!.content.equals(NI_HAO_BIG5)).toBe(true);
  });

  it("decodes quoted-printable byte by byte: escapes and soft breaks, raw bytes kept", () => {
    const raw = Buffer.concat([
      Buffer.from("caf"),
      Buffer.from("é", "utf8"),
      Buffer.from(" =3D =C3=A9 lo=\r\nng line  \r\n= end"),
    ]);
    expect(decodeQuotedPrintable(raw).toString("utf8")).toBe("café = é long line\r\n= end");
  });
});
