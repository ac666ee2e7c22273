import { randomBytes } from "node:crypto";

/**
 * The text around a file in a multipart/form-data body, so that the file itself can be
 * streamed between them.
 */
export interface MultipartEnvelope {
  contentType: string;
  /** The text fields, then the file part's headers. */
  preamble: Buffer;
  /** The end of the file part and the closing boundary. */
  epilogue: Buffer;
}

/** As browsers escape a name in a Content-Disposition of multipart/form-data (HTML spec). */
function quoted(value: string): string {
  return value.replace(/\r/g, "%0D").replace(/\n/g, "%0A").replace(/"/g, "%22");
}

export function multipartEnvelope(options: {
  fields: Record<string, string>;
  fileField: string;
  fileName: string;
  fileType: string;
}): MultipartEnvelope {
  const boundary = `----ClientDeskUpload${randomBytes(16).toString("hex")}`;
  let head = "";
  for (const [name, value] of Object.entries(options.fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(options.fileField)}"; ` +
    `filename="${quoted(options.fileName)}"\r\nContent-Type: ${options.fileType}\r\n\r\n`;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    preamble: Buffer.from(head, "utf8"),
    epilogue: Buffer.from(`\r\n--${boundary}--\r\n`, "utf8"),
  };
}
