import type { ExportFile } from "../queries/export-contents";

/**
 * Names inside an export's ZIP and of the ZIP itself (issue 28, point 4): made from what people
 * typed (client and file names), so every one is cleaned to something any file system and any
 * unzip tool accepts, and made unique where two would collide.
 */

const UNSAFE = /[\\/:*?"<>|\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;
const MAX_NAME = 100;

/** A file or folder name from a person's text: no path parts or control characters, not hidden. */
export function safeName(text: string, fallback = "file"): string {
  const cleaned = text
    .normalize("NFC")
    .replace(UNSAFE, "_")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^[.\s]+/, "")
    .replace(/[.\s]+$/, "");
  if (!cleaned) return fallback;
  if (cleaned.length <= MAX_NAME) return cleaned;
  const dot = cleaned.lastIndexOf(".");
  const extension = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : "";
  return `${cleaned.slice(0, MAX_NAME - extension.length).trimEnd()}${extension}`;
}

/** Lower-case ASCII words joined by hyphens ("Acme & Co." -> "acme-co"), for the ZIP's name. */
export function slug(text: string, fallback: string): string {
  const words = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return words || fallback;
}

/** `name`, or `name (2)`, `name (3)`... the first that `taken` does not hold yet (then added). */
export function uniqueIn(taken: Set<string>, name: string): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) {
    const dot = name.lastIndexOf(".");
    candidate = dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
  }
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** YYYY-MM-DD of an instant in UTC. */
export const isoDate = (when: Date) => when.toISOString().slice(0, 10);

/**
 * Where each file version goes under `files/`: one folder per file thread, named by the date
 * and name of its first version (`files/2026-11-29-Logo.pdf/`), holding every version as
 * `v1-Logo.pdf`, `v2-Logo final.pdf`. Keyed by message id.
 */
export function filePaths(files: ExportFile[]): Map<string, string> {
  const folders = new Map<string, string>();
  const taken = new Set<string>();
  const paths = new Map<string, string>();
  for (const file of files) {
    let folder = folders.get(file.threadId);
    if (!folder) {
      folder = uniqueIn(taken, `${isoDate(file.createdAt)}-${safeName(file.originalName)}`);
      folders.set(file.threadId, folder);
    }
    const name = `v${file.versionNumber}-${safeName(file.originalName)}`;
    paths.set(
      file.messageId,
      `files/${folder}/${uniqueIn(taken, `${folder}/${name}`).slice(folder.length + 1)}`,
    );
  }
  return paths;
}

/** The ZIP's name: `clientdesk-<name>-<yyyy-mm-dd>.zip`. */
export function exportFileName(name: string, now: Date): string {
  return `clientdesk-${slug(name, "export")}-${isoDate(now)}.zip`;
}
