import { expect } from "vitest";
import type { TestClock } from "./clock";
import { addJoinedClient, type JoinedClient, setTier } from "./conversations";
import { type SignedInOwner, signUpOwner } from "./factories";
import { minimalPdf } from "./pdf";
import type { TestServer } from "./server";
import type { ReceivedMail } from "./smtp";

export interface FileSentForApproval {
  owner: SignedInOwner;
  client: JoinedClient;
  fileId: string;
  /** The client's unanswered-messages email, with its Approve and Needs Work links. */
  mail: ReceivedMail;
}

/**
 * A pro owner sends a PDF for approval to a new joined client; five minutes later (the
 * client's default delay) the unanswered-messages email about it goes out.
 */
export async function sendFileForApproval(
  server: TestServer,
  fileName: string,
): Promise<FileSentForApproval> {
  const owner = await signUpOwner(server, "Olivia Owner");
  await setTier(owner.id, "pro");
  const client = await addJoinedClient(server, owner, { name: "Carla Client" });
  const body = new FormData();
  body.append("requiresFeedback", "true");
  body.append(
    "file",
    new Blob([new Uint8Array(minimalPdf())], { type: "application/pdf" }),
    fileName,
  );
  const upload = await owner.agent.request("POST", `/api/clients/${client.id}/upload`, { body });
  expect(upload.status, JSON.stringify(upload.body)).toBe(201);
  (server.clock as TestClock).advanceMinutes(5);
  await server.jobs.runOnce("unanswered-messages");
  const mail = await server.smtp.waitFor(client.email, (m) => m.text.includes(fileName));
  return { owner, client, fileId: upload.body.id, mail };
}

/** The file's decision as the owner's app lists it. */
export async function feedbackAsOwnerSees(
  sent: FileSentForApproval,
): Promise<{ id: string; feedbackStatus: string; feedbackComment: string | null }> {
  const list = await sent.owner.agent.get(`/api/clients/${sent.client.id}/attachments`);
  expect(list.status).toBe(200);
  const file = (
    list.body as { id: string; feedbackStatus: string; feedbackComment: string | null }[]
  ).find((candidate) => candidate.id === sent.fileId);
  if (!file) throw new Error(`file ${sent.fileId} is not in the owner's list`);
  return file;
}
