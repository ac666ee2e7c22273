import { PDFDocument, type PDFFont, rgb, StandardFonts } from "pdf-lib";
import { formatFileSize } from "../../shared/files";
import type { ApprovalRecordFacts, RecordMark } from "../queries/approval-record";

/** A4 in points, and the margins. */
const PAGE = { width: 595.28, height: 841.89 } as const;
const MARGIN = 48;
const WIDTH = PAGE.width - 2 * MARGIN;
/** Below this the page holds only the "and N more" line and the footer. */
const FOOTER_ROOM = 40;
const INK = rgb(0.12, 0.13, 0.16);
const MUTED = rgb(0.38, 0.4, 0.45);
const RULE = rgb(0.82, 0.84, 0.87);

/** When things happened, in UTC, unambiguous in any country: 29 Nov 2026, 17:40 UTC. */
export function recordTime(at: Date | string): string {
  const date = new Date(at);
  const day = date.toLocaleDateString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
  const time = date.toLocaleTimeString("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
  });
  return `${day}, ${time} UTC`;
}

/** The record's download name: approval-record-<file name without extension>-v<N>.pdf. */
export function approvalRecordFileName(originalName: string, version: number): string {
  const base = originalName.replace(/\.[^.]*$/, "") || "file";
  return `approval-record-${base}-v${version}.pdf`;
}

/** One page, written top to bottom; text the standard font cannot draw becomes "?". */
class PageWriter {
  y = PAGE.height - MARGIN;
  private readonly drawable: Set<number>;

  constructor(
    private readonly page: ReturnType<PDFDocument["addPage"]>,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.drawable = new Set(regular.getCharacterSet());
  }

  /** Keeps what the font's encoding (WinAnsi) can draw; line breaks become spaces. */
  clean(text: string): string {
    return [...text.replace(/\s+/g, " ")]
      .map((char) => (this.drawable.has(char.codePointAt(0) ?? 0) ? char : "?"))
      .join("");
  }

  /** `text` broken into lines at most `width` wide, at most `maxLines` (the last ends "..."). */
  wrap(text: string, size: number, width: number, maxLines: number, font = this.regular) {
    const words = this.clean(text).split(" ");
    const lines: string[] = [];
    let line = "";
    for (const word of words) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) <= width) line = next;
      else {
        if (line) lines.push(line);
        line = word;
        // A word longer than the line is cut.
        while (font.widthOfTextAtSize(line, size) > width) {
          let cut = line.length - 1;
          while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
          lines.push(line.slice(0, cut));
          line = line.slice(cut);
        }
      }
    }
    if (line) lines.push(line);
    if (lines.length <= maxLines) return lines;
    const kept = lines.slice(0, maxLines);
    let last = `${kept[maxLines - 1]}...`;
    while (font.widthOfTextAtSize(last, size) > width && last.length > 4)
      last = `${last.slice(0, -4)}...`;
    kept[maxLines - 1] = last;
    return kept;
  }

  text(text: string, options: { size?: number; bold?: boolean; x?: number; muted?: boolean }) {
    const size = options.size ?? 10;
    this.page.drawText(this.clean(text), {
      x: MARGIN + (options.x ?? 0),
      y: this.y - size,
      size,
      font: options.bold ? this.bold : this.regular,
      color: options.muted ? MUTED : INK,
    });
  }

  /** A line of text and the space below it. */
  line(text: string, options: { size?: number; bold?: boolean; x?: number; muted?: boolean } = {}) {
    this.text(text, options);
    this.y -= (options.size ?? 10) * 1.45;
  }

  /** A label and its value side by side (the facts of the file). */
  fact(label: string, value: string) {
    this.text(label, { muted: true });
    const lines = this.wrap(value, 10, WIDTH - 110, 2);
    for (const one of lines) this.line(one, { x: 110 });
  }

  heading(text: string) {
    this.y -= 8;
    this.line(text, { size: 12, bold: true });
    // Under the heading's descenders.
    this.page.drawLine({
      start: { x: MARGIN, y: this.y + 1.5 },
      end: { x: MARGIN + WIDTH, y: this.y + 1.5 },
      thickness: 0.5,
      color: RULE,
    });
    this.y -= 5;
  }

  /** The lines `text` takes at `size` within `width` (up to maxLines). */
  height(lines: number, size = 10) {
    return lines * size * 1.45;
  }
}

function markLines(writer: PageWriter, mark: RecordMark) {
  const head = `#${mark.number} · page ${mark.page} · ${mark.authorName}`;
  const resolution = mark.resolvedAt
    ? `Resolved by ${mark.resolvedByName ?? "someone no longer here"} on ${recordTime(mark.resolvedAt)}`
    : "Open";
  return {
    head: writer.wrap(head, 9, WIDTH - 12, 1),
    comment: writer.wrap(mark.comment, 9, WIDTH - 12, 2),
    resolution,
  };
}

/**
 * The approval record of one approved version: a one-page PDF (pdf-lib) that an agency
 * attaches to its invoice. Long content is shortened (comments to a few lines, the marks list
 * with "and N more") so that it always fits the one page.
 */
export async function renderApprovalRecord(
  facts: ApprovalRecordFacts,
  sha256: string,
  generatedAt: Date,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const title = `Approval record: ${facts.file.originalName}, version ${facts.version}`;
  pdf.setTitle(title);
  pdf.setAuthor(facts.agencyName);
  pdf.setProducer("ClientDesk");
  pdf.setCreationDate(generatedAt);
  const page = pdf.addPage([PAGE.width, PAGE.height]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const w = new PageWriter(page, regular, bold);

  w.line(facts.agencyName, { size: 11, bold: true, muted: true });
  w.line("Approval record", { size: 20, bold: true });
  w.y -= 4;

  w.heading("File");
  w.fact("Client", facts.clientName);
  w.fact("File", facts.file.originalName);
  w.fact("Version", String(facts.version));
  const bytes = Number(facts.file.sizeBytes);
  w.fact("Size", `${formatFileSize(bytes)} (${bytes.toLocaleString("en-US")} bytes)`);
  w.fact("SHA-256", sha256);
  w.fact("Sent", `by ${facts.sentByName} on ${recordTime(facts.sentAt)}`);
  w.fact(
    "Who approves",
    facts.approvalRule === "everyone"
      ? "Everyone asked must approve"
      : "Any one of the client's people",
  );

  w.heading("Approved");
  for (const approval of facts.approvals.slice(0, 8)) {
    const at = approval.decidedAt ? ` on ${recordTime(approval.decidedAt)}` : "";
    w.line(`Approved by ${approval.name}${at}`, { bold: true });
    if (approval.comment) {
      for (const one of w.wrap(`"${approval.comment}"`, 9, WIDTH - 12, 3))
        w.line(one, { size: 9, x: 12, muted: true });
    }
  }
  if (facts.approvals.length > 8) w.line(`and ${facts.approvals.length - 8} more`, { muted: true });

  w.heading(`Marks on this version (${facts.marks.length})`);
  if (facts.marks.length === 0) w.line("No marks were made on this version.", { muted: true });
  const moreRoom = w.height(1) + 4;
  let shown = 0;
  for (const mark of facts.marks) {
    const lines = markLines(w, mark);
    const needed = w.height(lines.head.length + lines.comment.length + 1, 9) + 4;
    const left = facts.marks.length - shown - 1;
    // Keep room for "and N more" unless this is the last one.
    if (w.y - needed - (left > 0 ? moreRoom : 0) < MARGIN + FOOTER_ROOM) break;
    for (const one of lines.head) w.line(one, { size: 9, bold: true });
    for (const one of lines.comment) w.line(one, { size: 9, x: 12 });
    w.line(lines.resolution, { size: 9, x: 12, muted: true });
    w.y -= 4;
    shown++;
  }
  if (shown < facts.marks.length) w.line(`and ${facts.marks.length - shown} more`, { muted: true });

  w.y = MARGIN + 12;
  w.line(`Generated on ${recordTime(generatedAt)} by ClientDesk for ${facts.agencyName}.`, {
    size: 8,
    muted: true,
  });
  return pdf.save();
}
