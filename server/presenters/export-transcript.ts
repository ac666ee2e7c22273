import { formatFileSize } from "../../shared/files";
import type { FeedbackStatus, MessagePayload } from "../../shared/schemas/messages";
import type { Role } from "../../shared/schemas/user";
import { escapeHtml } from "../mail/layout";

/**
 * transcript.html of an export (issue 28, point 4): one self-contained page (inline CSS, no
 * script, nothing fetched) that reads offline. Written in pieces: the head, then each page of
 * messages as the database gives it, then the foot, so an export of any length is never one
 * string. Every piece of people's text goes through escapeHtml.
 */

export interface TranscriptHeading {
  /** The client's name. */
  clientName: string;
  /** The owner's side as the viewer names it (the agency for a contact). */
  workspaceName: string;
  generatedAt: Date;
  /** The IANA zone times are shown in (the viewer's), else UTC. */
  timeZone: string | null;
  /** Staff exports carry internal notes; a contact's never does. */
  includesInternalNotes: boolean;
}

const STYLE = `
:root{color-scheme:light;--ink:#1f2328;--muted:#59636e;--line:#d1d9e0;--team:#eef6ff;--client:#f6f8fa;--note:#fff8c5;--note-line:#d4a72c;--ok:#1a7f37;--warn:#7d4e00}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#fff}
main{max-width:760px;margin:0 auto;padding:24px 16px 48px}
h1{font-size:22px;margin:0 0 4px}
.meta{color:var(--muted);font-size:13px;margin:0 0 24px}
ol{list-style:none;margin:0;padding:0}
.message{border:1px solid var(--line);border-radius:10px;padding:10px 14px;margin:0 0 12px;background:var(--client)}
.message--owner{background:var(--team)}
.message--internal{background:var(--note);border:1px dashed var(--note-line)}
.message header{display:flex;flex-wrap:wrap;gap:4px 10px;align-items:baseline;font-size:13px;color:var(--muted)}
.author{font-weight:600;color:var(--ink);font-size:14px}
.badge{display:inline-block;font-size:12px;font-weight:600;border-radius:999px;padding:0 8px;border:1px solid currentColor}
.badge--internal{color:#7d4e00}
.edited{font-size:12px;color:#5b6472}
.text--deleted{font-style:italic;color:#5b6472}
.text{margin:6px 0 0;white-space:pre-wrap;overflow-wrap:anywhere}
.file{margin:6px 0 0}
.file a{font-weight:600}
.decision{margin:8px 0 0;padding:6px 10px;border-left:3px solid var(--line);font-size:14px}
.decision ul{margin:4px 0 0;padding-left:18px}
.status--approved{color:var(--ok);font-weight:600}
.status--needs_work{color:var(--warn);font-weight:600}
.status--pending{color:var(--muted);font-weight:600}
.comment{white-space:pre-wrap;overflow-wrap:anywhere}
@media print{.message{break-inside:avoid}}
`;

/** The page up to the list of messages. */
export function transcriptHead(heading: TranscriptHeading): string {
  const title = `${heading.clientName} · ${heading.workspaceName}`;
  const notes = heading.includesInternalNotes
    ? " Internal notes (the team's only, never shown to the client) are marked “Internal note”."
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p class="meta">Conversation exported from ClientDesk on ${escapeHtml(readableTime(heading.generatedAt, heading.timeZone))}. Files are in the files folder beside this page; approvals.csv lists every decision.${notes}</p>
<ol>
`;
}

/** The end of the page; `count` messages were written. */
export function transcriptFoot(count: number): string {
  const empty = count === 0 ? '<li class="meta">No messages yet.</li>\n' : "";
  return `${empty}</ol>\n</main>\n</body>\n</html>\n`;
}

const SIDE: Record<Role, string> = { owner: "Team", client: "Client" };

const STATUS: Record<FeedbackStatus, string> = {
  pending: "Waiting for approval",
  approved: "Approved",
  needs_work: "Needs work",
};

/**
 * One message as the transcript shows it: who wrote it (name and side), when (readable, and
 * ISO in the datetime attribute), its text, its file (linked to `filePath` in the ZIP) and the
 * decisions on it; an internal note is marked as such. The message as the viewer's side
 * receives it from the API, so names follow the same rules as in the app.
 */
export function renderTranscriptMessage(
  message: MessagePayload,
  filePath: string | undefined,
  timeZone: string | null,
): string {
  const internal = message.visibility === "internal";
  const classes = `message message--${message.senderRole}${internal ? " message--internal" : ""}`;
  const created = new Date(message.createdAt);
  const parts = [
    `<li class="${classes}" id="m-${escapeHtml(message.id)}">`,
    "<header>",
    `<span class="author">${escapeHtml(message.authorName ?? message.senderName ?? "")}</span>`,
    `<span class="side">${SIDE[message.senderRole]}</span>`,
    `<time datetime="${created.toISOString()}">${escapeHtml(readableTime(created, timeZone))}</time>`,
    internal ? '<span class="badge badge--internal">Internal note</span>' : "",
    message.editedAt ? '<span class="edited">(edited)</span>' : "",
    "</header>",
  ];
  // A deleted message keeps its place, as in the app (its text and file are gone).
  if (message.deleted) parts.push('<p class="text text--deleted">Message deleted</p>');
  if (message.content) parts.push(`<p class="text">${escapeHtml(message.content)}</p>`);
  if (message.fileName) parts.push(renderFile(message, filePath));
  if (message.requiresFeedback) parts.push(renderDecision(message, timeZone));
  parts.push("</li>\n");
  return parts.join("");
}

function renderFile(message: MessagePayload, filePath: string | undefined): string {
  const name = escapeHtml(message.fileName ?? "");
  const link = filePath ? `<a href="${escapeHtml(encodePath(filePath))}">${name}</a>` : name;
  const details = [
    (message.versionNumber ?? 1) > 1 ? `version ${message.versionNumber}` : "",
    message.fileSize != null ? formatFileSize(message.fileSize) : "",
  ].filter(Boolean);
  return `<p class="file">File: ${link}${details.length ? ` (${escapeHtml(details.join(", "))})` : ""}</p>`;
}

function renderDecision(message: MessagePayload, timeZone: string | null): string {
  const status = message.feedbackStatus ?? "pending";
  const decided = (message.approvals ?? []).filter((one) => one.status !== "pending");
  const people =
    decided.length > 0
      ? decided.map((one) => ({
          name: one.name,
          status: one.status,
          at: one.decidedAt,
          comment: one.comment,
        }))
      : message.feedbackByName
        ? [
            {
              name: message.feedbackByName,
              status,
              at: message.feedbackAt,
              comment: message.feedbackComment,
            },
          ]
        : [];
  const items = people.map(
    (one) =>
      `<li><span class="status--${one.status}">${STATUS[one.status]}</span> by ${escapeHtml(one.name)}${
        one.at ? ` on ${escapeHtml(readableTime(new Date(one.at), timeZone))}` : ""
      }${one.comment ? `: <span class="comment">${escapeHtml(one.comment)}</span>` : ""}</li>`,
  );
  return `<div class="decision">Decision: <span class="status--${status}">${STATUS[status]}</span>${
    items.length ? `<ul>${items.join("")}</ul>` : ""
  }</div>`;
}

/** A relative link to a path of the ZIP (each segment percent-encoded). */
function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/**
 * One formatter per time zone, made once: an Intl.DateTimeFormat holds ICU's native memory
 * (tens of KB) that the JS heap does not count, so one per message made the server's RSS grow
 * by hundreds of MB over a long transcript before any GC freed them.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZone,
      timeZoneName: "short",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** "29 Nov 2026, 21:58 UTC" in the viewer's zone (UTC when unknown or invalid). */
export function readableTime(when: Date, timeZone: string | null): string {
  try {
    return formatterFor(timeZone ?? "UTC").format(when);
  } catch {
    return formatterFor("UTC").format(when);
  }
}
