import { type PassThrough, Readable } from "node:stream";
import { ZipFile } from "yazl";
import type { Services } from "../context";
import type { Client, User } from "../models";
import { ownerNameForClient } from "../../shared/owner-name";
import { authorizedClient, clientsPolicy } from "../policies/clients";
import { visibilitiesFor } from "../policies/conversation-sides";
import { APPROVALS_CSV_HEADER, approvalRows } from "../presenters/export-approvals-csv";
import { filePaths, safeName, uniqueIn } from "../presenters/export-names";
import {
  renderTranscriptMessage,
  transcriptFoot,
  transcriptHead,
} from "../presenters/export-transcript";
import { presentMessage } from "../presenters/message";
import {
  conversationPages,
  type ExportFile,
  loadExportFiles,
  workspaceClients,
} from "../queries/export-contents";
import { workspaceOwnerOf } from "../queries/workspace-owner";
import { loadMessageView, type MessageView } from "../queries/load-conversation";
import { escapeHtml } from "../mail/layout";

/**
 * An export's ZIP (issue 28, point 4), streamed while it is built: yazl writes each entry in
 * turn and asks for an entry's bytes only when its turn comes (addReadStreamLazy), so at any
 * moment one stored file is open and one page of messages is in memory, and the output is
 * pulled by whoever reads it (the HTTP answer, or storage for a mailed export) at its pace.
 *
 * Per conversation: transcript.html, files/ (every version of every file, stored as they are:
 * no compression of images and PDFs that are compressed already), approvals.csv. A workspace
 * export has a folder per client and an index.html linking them.
 */

/**
 * What is exported: one conversation for its staff (GET /api/clients/{id}/export), a contact's
 * own (GET /api/portal/export), or the whole workspace (GET /api/export).
 */
export type ExportScope =
  | { kind: "conversation"; clientId: string | undefined }
  | { kind: "own" }
  | { kind: "workspace" };

/** The conversations of `scope` that `viewer` may export, and the name the ZIP is named after. */
export async function exportSubject(
  services: Pick<Services, "db" | "clientCache">,
  viewer: User,
  scope: ExportScope,
): Promise<{ clients: Client[]; name: string; clientId: string | null; workspaceId: string }> {
  if (scope.kind === "workspace") {
    clientsPolicy.authorize(viewer, "exportWorkspace");
    const owner = await workspaceOwnerOf(services.db, viewer);
    return {
      clients: await workspaceClients(services.db, owner.id),
      name: ownerNameForClient(owner),
      clientId: null,
      workspaceId: owner.id,
    };
  }
  const client =
    scope.kind === "own"
      ? await authorizedClient(services, viewer, "exportOwnData", viewer.clientId ?? undefined)
      : await authorizedClient(services, viewer, "exportConversation", scope.clientId);
  return { clients: [client], name: client.name, clientId: client.id, workspaceId: client.ownerId };
}

/** What one export holds, planned before a byte is written (the size decides inline or mailed). */
export interface ExportPlan {
  viewer: User;
  /** The conversations, each under its folder ("" for a single one, "Acme/" in a workspace). */
  parts: ExportPart[];
  /** Whether the ZIP has a folder per client and an index.html. */
  workspace: boolean;
  /** The sum of the file versions' stored sizes. */
  totalBytes: number;
}

interface ExportPart {
  client: Client;
  folder: string;
  files: ExportFile[];
  paths: Map<string, string>;
  view: MessageView;
}

/** Lists what the export of `clients` as `viewer` sees them holds (files, names, sizes). */
export async function planExport(
  services: Pick<Services, "db">,
  viewer: User,
  clients: Client[],
  workspace: boolean,
): Promise<ExportPlan> {
  const visible = visibilitiesFor(viewer.role);
  const folders = new Set<string>(["index.html"]);
  const parts: ExportPart[] = [];
  for (const client of clients) {
    const [files, view] = await Promise.all([
      loadExportFiles(services.db, client.id, visible),
      loadMessageView(services.db, viewer, client),
    ]);
    parts.push({
      client,
      folder: workspace ? `${uniqueIn(folders, safeName(client.name, "client"))}/` : "",
      files,
      paths: filePaths(files),
      view,
    });
  }
  const totalBytes = parts
    .flatMap((part) => part.files)
    .reduce((sum, file) => sum + file.sizeBytes, 0);
  return { viewer, parts, workspace, totalBytes };
}

/** The ZIP of `plan` as a stream; a failure (a stored file unreadable) destroys it. */
export function streamExport(
  services: Pick<Services, "db" | "storage" | "clock" | "logger">,
  plan: ExportPlan,
): Readable {
  const zip = new ZipFile();
  // A PassThrough (yazl's types say only ReadableStream).
  const output = zip.outputStream as unknown as PassThrough;
  const now = services.clock.now();
  // The stored file being copied; closed with the output (a download cancelled half-way).
  let source: Readable | null = null;
  zip.on("error", (error: Error) => {
    services.logger.error({ err: error }, "export failed while streaming");
    output.destroy(error);
  });
  output.on("close", () => source?.destroy());
  // yazl listens to no entry's errors: an unreadable file or a failed page query fails the ZIP.
  const entry = (stream: Readable) =>
    stream.on("error", (error: Error) => zip.emit("error", error));
  if (plan.workspace)
    zip.addBuffer(Buffer.from(workspaceIndex(plan, now)), "index.html", { mtime: now });
  for (const part of plan.parts) {
    zip.addReadStreamLazy(`${part.folder}transcript.html`, { mtime: now }, (callback) =>
      callback(null, entry(byteStream(transcriptChunks(services, plan, part, now)))),
    );
    for (const file of part.files) {
      zip.addReadStreamLazy(
        `${part.folder}${part.paths.get(file.messageId)}`,
        { mtime: new Date(file.createdAt), compress: false, size: file.sizeBytes },
        (callback) =>
          services.storage.get(file.storedName).then(
            (stream) => {
              source = stream;
              callback(null, entry(stream));
            },
            (error: Error) => callback(error, null as never),
          ),
      );
    }
    zip.addReadStreamLazy(`${part.folder}approvals.csv`, { mtime: now }, (callback) =>
      callback(null, entry(byteStream(approvalsChunks(services, plan, part)))),
    );
  }
  zip.end();
  return output;
}

/**
 * A byte stream of generated chunks that asks for the next only when the last one is taken
 * (Readable.from's object mode would read 16 pages ahead).
 */
const byteStream = (chunks: AsyncGenerator<Buffer>) =>
  Readable.from(chunks, { objectMode: false, highWaterMark: 1 });

async function* transcriptChunks(
  services: Pick<Services, "db">,
  plan: ExportPlan,
  part: ExportPart,
  now: Date,
): AsyncGenerator<Buffer> {
  const { viewer } = plan;
  const timeZone = viewer.timeZone ?? null;
  yield Buffer.from(
    transcriptHead({
      clientName: part.client.name,
      workspaceName: part.view.senderNames.owner,
      generatedAt: now,
      timeZone,
      includesInternalNotes: viewer.role === "owner",
    }),
  );
  let count = 0;
  for await (const page of conversationPages(
    services.db,
    part.client.id,
    visibilitiesFor(viewer.role),
  )) {
    count += page.length;
    yield Buffer.from(
      page
        .map((message) =>
          renderTranscriptMessage(
            presentMessage(message, part.view),
            part.paths.get(message.id),
            timeZone,
          ),
        )
        .join(""),
    );
  }
  yield Buffer.from(transcriptFoot(count));
}

async function* approvalsChunks(
  services: Pick<Services, "db">,
  plan: ExportPlan,
  part: ExportPart,
): AsyncGenerator<Buffer> {
  yield Buffer.from(APPROVALS_CSV_HEADER);
  for await (const page of conversationPages(
    services.db,
    part.client.id,
    visibilitiesFor(plan.viewer.role),
    { approvalsOnly: true },
  )) {
    yield Buffer.from(
      page.map((message) => approvalRows(presentMessage(message, part.view))).join(""),
    );
  }
}

/** A workspace export's first page: a link to each client's transcript. */
function workspaceIndex(plan: ExportPlan, now: Date): string {
  const items = plan.parts
    .map(
      (part) =>
        `<li><a href="${escapeHtml(encodeURIComponent(part.folder.slice(0, -1)))}/transcript.html">${escapeHtml(part.client.name)}</a></li>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>ClientDesk export</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:760px;margin:0 auto;padding:24px 16px;color:#1f2328}</style>
</head><body><main><h1>ClientDesk export</h1>
<p>Exported on ${now.toISOString().slice(0, 10)}. Each client's folder holds its transcript.html, its files and approvals.csv.</p>
<ul>
${items || "<li>No clients.</li>"}
</ul></main></body></html>
`;
}
