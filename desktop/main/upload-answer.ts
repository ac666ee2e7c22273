import type { IncomingMessage } from "node:http";
import type { DesktopUploadResult } from "../common/file-upload";

/** What main answers the page for an upload the server answered, or did not. */
export const unreachable = (): DesktopUploadResult => ({
  outcome: "unreachable",
  message: "Can't reach the ClientDesk server. Check your connection.",
});

/** The server's answer: its JSON, or its {message} on an error. */
export async function readAnswer(
  response: IncomingMessage,
  signal: AbortSignal,
): Promise<DesktopUploadResult> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) {
    if (signal.aborted) throw new Error("cancelled");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
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
  const retryAfter = response.headers["retry-after"];
  return {
    outcome: "failed",
    status,
    message,
    body,
    retryAfter: typeof retryAfter === "string" ? retryAfter : null,
  };
}
