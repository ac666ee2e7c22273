import type { DesktopUploadResult } from "../common/file-upload";
import type { UploadResponse } from "./upload-request";

/** What main answers the page for an upload the server answered, or did not. */
export const unreachable = (): DesktopUploadResult => ({
  outcome: "unreachable",
  message: "Can't reach the ClientDesk server. Check your connection.",
});

/** The server's answer: its JSON, or its {message} on an error. */
export async function readAnswer(
  response: UploadResponse,
  signal: AbortSignal,
): Promise<DesktopUploadResult> {
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stop = () => reject(new Error("cancelled"));
    if (signal.aborted) stop();
    signal.addEventListener("abort", stop, { once: true });
    response.on("data", (chunk) => chunks.push(chunk));
    response.on("error", reject);
    response.on("end", () => {
      signal.removeEventListener("abort", stop);
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
  });
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: kept as text.
  }
  const status = response.statusCode ?? 0;
  if (status >= 200 && status < 300) return { outcome: "uploaded", status, body };
  const message =
    typeof body === "object" &&
    body !== null &&
    typeof (body as { message?: unknown }).message === "string"
      ? (body as { message: string }).message
      : `Upload failed (${status})`;
  const header = response.headers["retry-after"];
  const retryAfter = Array.isArray(header) ? header[0] : header;
  return {
    outcome: "failed",
    status,
    message,
    body,
    retryAfter: typeof retryAfter === "string" ? retryAfter : null,
  };
}
