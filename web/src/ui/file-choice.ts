import { fileExtension, formatFileSize } from "../../../shared/files";
import { i18n } from "../i18n/i18n";

/**
 * The upload widget's rules without React (upload-widget.tsx shows them): which file is
 * chosen, what is reported, and that the widget returns to empty after every upload.
 */
export interface FileProblem {
  title: string;
  description: string;
}

/** The spec's checks (section 5): the extension must be accepted, the size at most the maximum. */
export function checkFile(
  file: File,
  acceptedExtensions: readonly string[],
  maxBytes: number,
): FileProblem | null {
  if (!acceptedExtensions.includes(fileExtension(file.name))) {
    return {
      title: i18n.t("File type not supported", { ns: "common" }),
      description: i18n.t("Accepted: {{types}}", {
        ns: "common",
        types: acceptedExtensions.map((extension) => `.${extension}`).join(", "),
      }),
    };
  }
  if (file.size > maxBytes) {
    return {
      title: i18n.t("File size must be less than {{size}}", {
        ns: "common",
        size: formatFileSize(maxBytes),
      }),
      description: i18n.t("{{fileName}} is {{size}}.", {
        ns: "common",
        fileName: file.name,
        size: formatFileSize(file.size),
      }),
    };
  }
  return null;
}

/**
 * The first of the files picked or dropped: chosen when it passes the checks, else nothing is
 * chosen and the problem is reported. null when no file was offered (the choice stays).
 */
export function chooseFirst(
  files: ArrayLike<File> | null | undefined,
  acceptedExtensions: readonly string[],
  maxBytes: number,
): { file: File | null; problem: FileProblem | null } | null {
  const first = files?.[0];
  if (!first) return null;
  const problem = checkFile(first, acceptedExtensions, maxBytes);
  return problem ? { file: null, problem } : { file: first, problem: null };
}

/**
 * Uploads the chosen file: `uploading(true)`, then `uploading(false)` once it settles, whether
 * it succeeded or failed (the caller reports failures; the widget only returns to empty).
 */
export async function uploadChosen(
  file: File,
  onUpload: (file: File) => Promise<unknown>,
  uploading: (running: boolean) => void,
): Promise<void> {
  uploading(true);
  try {
    await onUpload(file);
  } catch {
    // Reported by the caller.
  } finally {
    uploading(false);
  }
}
