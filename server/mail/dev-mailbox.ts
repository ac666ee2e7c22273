import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { MailMessage } from "./mail-message";

/**
 * The dev mailbox's files under DATA_DIR/mail: each mail as `<id>.eml` (the raw message, for
 * any mail reader) and `<id>.json` (what the /dev/mail page shows, so that it needs no MIME
 * parser). Ids sort by time.
 */

export interface DevMail {
  id: string;
  date: string;
  to: string;
  subject: string;
  text: string;
  /** The HTML part with inline images (cid:) turned into data: URLs, for a browser. */
  html: string;
}

const ID = /^[0-9TZ-]+-[a-z0-9]{6}$/;

export function writeDevMail(dir: string, date: Date, raw: Buffer, message: MailMessage): string {
  const id = `${date.toISOString().replace(/[:.]/g, "-")}-${Math.random().toString(36).slice(2, 8).padEnd(6, "0")}`;
  let html = message.html;
  for (const attachment of message.attachments ?? []) {
    const dataUrl = `data:${attachment.contentType};base64,${attachment.content.toString("base64")}`;
    html = html.split(`cid:${attachment.cid}`).join(dataUrl);
  }
  const shown: DevMail = {
    id,
    date: date.toISOString(),
    to: message.to,
    subject: message.subject,
    text: message.text,
    html,
  };
  writeFileSync(path.join(dir, `${id}.eml`), raw);
  writeFileSync(path.join(dir, `${id}.json`), JSON.stringify(shown));
  return path.join(dir, `${id}.eml`);
}

/** The mails, newest first; a .eml without its .json (written by an older version) shows its id only. */
export function listDevMail(dir: string): Pick<DevMail, "id" | "date" | "to" | "subject">[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith(".eml") && ID.test(file.slice(0, -4)))
    .map((file) => file.slice(0, -4))
    .sort()
    .reverse()
    .map((id) => {
      const mail = readDevMail(dir, id);
      return mail
        ? { id, date: mail.date, to: mail.to, subject: mail.subject }
        : { id, date: "", to: "", subject: "(no summary: open the .eml)" };
    });
}

export function readDevMail(dir: string, id: string): DevMail | null {
  if (!ID.test(id)) return null;
  try {
    return JSON.parse(readFileSync(path.join(dir, `${id}.json`), "utf8")) as DevMail;
  } catch {
    return null;
  }
}

export function readDevMailRaw(dir: string, id: string): Buffer | null {
  if (!ID.test(id)) return null;
  try {
    return readFileSync(path.join(dir, `${id}.eml`));
  } catch {
    return null;
  }
}
