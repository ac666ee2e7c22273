import { beforeAll, describe, expect, it } from "vitest";
import { CHAT_UPLOAD_EXTENSIONS, MB } from "../../../shared/files";
import { startEnglish } from "../../../tests/support/english-i18n";
import { checkFile, chooseFirst, uploadChosen } from "./file-choice";

const sized = (name: string, bytes: number) => new File([new Uint8Array(bytes)], name);

beforeAll(() => startEnglish(["common"]));

describe("choosing a file", () => {
  it("takes the first file offered when its type and size are accepted", () => {
    const first = sized("Brief.PDF", 10 * MB);
    const choice = chooseFirst([first, sized("other.png", 1)], CHAT_UPLOAD_EXTENSIONS, 10 * MB);
    expect(choice).toEqual({ file: first, problem: null });
  });

  it("chooses nothing and names the problem for another type or a larger file", () => {
    expect(chooseFirst([sized("run.exe", 1)], CHAT_UPLOAD_EXTENSIONS, 10 * MB)).toEqual({
      file: null,
      problem: {
        title: "File type not supported",
        description: "Accepted: .pdf, .jpg, .jpeg, .png, .doc, .docx",
      },
    });
    expect(chooseFirst([sized("big.pdf", 10 * MB + 1)], CHAT_UPLOAD_EXTENSIONS, 10 * MB)).toEqual({
      file: null,
      problem: {
        title: "File size must be less than 10 MB",
        description: "big.pdf is 10 MB.",
      },
    });
    // The type is checked first; a name without an extension has none.
    expect(checkFile(sized("big.exe", 20 * MB), ["pdf"], MB)?.title).toBe(
      "File type not supported",
    );
    expect(checkFile(sized("pdf", 1), ["pdf"], MB)?.title).toBe("File type not supported");
  });

  it("keeps the current choice when no file was offered (a cancelled picker, a drag of text)", () => {
    expect(chooseFirst(null, CHAT_UPLOAD_EXTENSIONS, MB)).toBeNull();
    expect(chooseFirst(undefined, CHAT_UPLOAD_EXTENSIONS, MB)).toBeNull();
    expect(chooseFirst([], CHAT_UPLOAD_EXTENSIONS, MB)).toBeNull();
  });
});

describe("uploading the chosen file", () => {
  it("is uploading while the upload runs and back to empty once it succeeded", async () => {
    const phases: boolean[] = [];
    let finish!: () => void;
    const file = sized("a.pdf", 1);
    let given: File | undefined;
    const done = uploadChosen(
      file,
      (chosen) => {
        given = chosen;
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
      (running) => phases.push(running),
    );
    expect(phases).toEqual([true]);
    expect(given).toBe(file);
    finish();
    await done;
    expect(phases).toEqual([true, false]);
  });

  it("returns to empty after a failure too, leaving the report to the caller", async () => {
    const phases: boolean[] = [];
    await expect(
      uploadChosen(
        sized("a.pdf", 1),
        () => Promise.reject(new Error("Storage is full")),
        (running) => phases.push(running),
      ),
    ).resolves.toBeUndefined();
    expect(phases).toEqual([true, false]);
  });
});
