import { exportQueuedResponse } from "../../../shared/schemas/exports";
import { i18n } from "../i18n/i18n";
import { ApiError, apiUrl } from "./client";

/** What became of an export (issue 28): saved by the browser, or to be emailed as a link. */
export type ExportOutcome =
  | { kind: "downloaded"; fileName: string }
  | { kind: "mailed"; message: string };

/**
 * Asks for an export (GET `path`, shared/schemas/exports.ts) and hands the ZIP to the browser's
 * downloads under the server's file name; a large export answers 202 and is emailed instead.
 * An inline export is at most EXPORT_INLINE_MAX_BYTES of files, so the page can hold it.
 */
export async function downloadExport(path: string): Promise<ExportOutcome> {
  const response = await fetch(apiUrl(path), { credentials: "include" });
  if (response.status === 202) {
    return { kind: "mailed", message: exportQueuedResponse.parse(await response.json()).message };
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null);
    const message =
      body && typeof body === "object" && "message" in body && typeof body.message === "string"
        ? body.message
        : i18n.t("Request failed ({{status}})", { ns: "common", status: response.status });
    throw new ApiError(response.status, message, body, response.headers);
  }
  const fileName =
    /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ??
    "clientdesk-export.zip";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the bytes by the time the page could need the memory back.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { kind: "downloaded", fileName };
}
