import { describe, expect, it } from "vitest";
import { csvRow } from "./export-approvals-csv";
import { exportFileName, filePaths, safeName, slug } from "./export-names";

describe("approvals.csv cells (RFC 4180, no formulas)", () => {
  it("quotes what needs quoting and defuses every formula start", () => {
    expect(csvRow(["plain", "a,b", 'say "hi"', "two\nlines"])).toBe(
      'plain,"a,b","say ""hi""","two\nlines"\r\n',
    );
    expect(csvRow(["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "ok=1"])).toBe(
      "'=1+1,'+1,'-1,'@SUM(A1),'\tx,ok=1\r\n",
    );
  });
});

describe("names inside an export", () => {
  it("keeps people's names readable but never a path, a hidden file or a control character", () => {
    expect(safeName("../../etc/passwd")).toBe("_.._etc_passwd");
    expect(safeName(".hidden")).toBe("hidden");
    expect(safeName("a\u202egpj.exe")).toBe("a_gpj.exe");
    expect(safeName("   ")).toBe("file");
    expect(safeName(`${"x".repeat(150)}.pdf`)).toBe(`${"x".repeat(96)}.pdf`);
    expect(slug("Ça & Co. — Studio", "export")).toBe("ca-co-studio");
    expect(slug("日本", "client")).toBe("client");
    expect(exportFileName("Acme & Co", new Date("2026-11-29T23:59:00Z"))).toBe(
      "clientdesk-acme-co-2026-11-29.zip",
    );
  });

  it("gives each file thread a folder and each version its own name, unique", () => {
    const at = new Date("2026-11-29T10:00:00Z");
    const file = (messageId: string, threadId: string, versionNumber: number, name: string) => ({
      messageId,
      threadId,
      versionNumber,
      originalName: name,
      storedName: `${messageId}-stored`,
      sizeBytes: 1,
      createdAt: at,
    });
    const paths = filePaths([
      file("a", "a", 1, "Logo.pdf"),
      file("b", "a", 2, "Logo final.pdf"),
      file("c", "c", 1, "Logo.pdf"),
      file("d", "a", 3, "Logo final.pdf"),
    ]);
    expect([...paths.values()]).toEqual([
      "files/2026-11-29-Logo.pdf/v1-Logo.pdf",
      "files/2026-11-29-Logo.pdf/v2-Logo final.pdf",
      "files/2026-11-29-Logo (2).pdf/v1-Logo.pdf",
      "files/2026-11-29-Logo.pdf/v3-Logo final.pdf",
    ]);
  });
});
