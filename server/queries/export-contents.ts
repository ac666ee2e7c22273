import type { Knex } from "knex";
import type { Visibility } from "../../shared/schemas/messages";
import { Client, Message } from "../models";

/** One version of a file as an export carries it (issue 28, point 4). */
export interface ExportFile {
  messageId: string;
  /** The file thread's first message (itself for a first version). */
  threadId: string;
  versionNumber: number;
  storedName: string;
  originalName: string;
  sizeBytes: number;
  createdAt: Date;
}

/**
 * Every file version of the conversation that the viewer's side may read (`visible`), oldest
 * first: the export lists them before the transcript is written, so that the transcript can
 * link each one. Small rows (no message text), one per version.
 */
export async function loadExportFiles(
  db: Knex,
  clientId: string,
  visible: readonly Visibility[],
): Promise<ExportFile[]> {
  const rows: {
    messageId: string;
    threadId: string;
    versionNumber: number;
    storedName: string;
    originalName: string;
    sizeBytes: number | string;
    createdAt: Date | string;
  }[] = await db("messages as m")
    .join("files as f", "f.id", "m.fileId")
    .where("m.clientId", clientId)
    .whereIn("m.visibility", [...visible])
    .orderBy("m.seq", "asc")
    .select(
      "m.id as messageId",
      db.raw("coalesce(m.version_of, m.id) as ??", ["threadId"]),
      "m.versionNumber",
      "f.storedName",
      "f.originalName",
      "f.sizeBytes",
      "m.createdAt",
    );
  return rows.map((row) => ({
    ...row,
    versionNumber: Number(row.versionNumber ?? 1),
    sizeBytes: Number(row.sizeBytes),
    createdAt: new Date(row.createdAt),
  }));
}

/**
 * The conversation's messages the viewer's side may read, oldest first, `pageSize` at a time
 * (keyset on seq, one index range scan each; 200 a page): an export of any length holds one
 * page at a time.
 * `approvalsOnly`: the file versions sent for approval only (approvals.csv).
 */
export async function* conversationPages(
  db: Knex,
  clientId: string,
  visible: readonly Visibility[],
  options: { approvalsOnly?: boolean; pageSize?: number } = {},
): AsyncGenerator<Message[]> {
  const pageSize = options.pageSize ?? 200;
  let after = 0;
  for (;;) {
    const query = Message.ofConversation(db, clientId, visible);
    if (options.approvalsOnly) query.where("m.requiresFeedback", true).whereNotNull("m.fileId");
    const page = await query.where("m.seq", ">", after).orderBy("m.seq", "asc").limit(pageSize);
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = Number(page.at(-1)!.seq);
  }
}

/** Every client of a workspace, by name: the whole workspace's export (GET /api/export). */
export async function workspaceClients(db: Knex, workspaceId: string): Promise<Client[]> {
  // A deleted client (issue 28, kept for its restore window) is not exported.
  return await Client.query(db)
    .where("ownerId", workspaceId)
    .whereNull("deletedAt")
    .orderBy([{ column: "name" }, { column: "createdAt" }]);
}
