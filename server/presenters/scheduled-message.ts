import type { ScheduledMessage } from "../../shared/schemas/scheduled-messages";
import type { ScheduledMessage as ScheduledRow } from "../models";

const iso = (at: Date | string) => new Date(at).toISOString();

/** A scheduled message (issue 28) as its author's side sees it: every field listed. */
export function presentScheduledMessage(row: ScheduledRow): ScheduledMessage {
  return {
    id: row.id,
    clientId: row.clientId,
    content: row.content,
    sendAt: iso(row.sendAt),
    status: "scheduled",
    author: { id: row.authorId, name: row.authorName ?? "" },
    visibility: row.visibility,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}
