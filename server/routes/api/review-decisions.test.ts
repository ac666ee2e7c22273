import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../../tests/support/clock";
import { addJoinedClient, type JoinedClient, setTier } from "../../../tests/support/conversations";
import { testDatabase } from "../../../tests/support/database";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { minimalPdf } from "../../../tests/support/pdf";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import { linkIn } from "../../../tests/support/smtp";

// Issue 27, decisions that point: open marks are counted on the file, carried over to the
// next version, resolved by approving, and listed in the email with the Approve link.

let server: TestServer;
let owner: SignedInOwner;
let client: JoinedClient;

beforeAll(async () => {
  // The notification sweep takes every due row of its database: this file gets its own.
  server = await startTestServer({ db: await testDatabase({ isolated: true }) });
  owner = await signUpOwner(server, "Olivia Owner");
  await setTier(owner.id, "pro");
  client = await addJoinedClient(server, owner, { name: "Carla Client" });
});
afterAll(async () => {
  await server?.close();
  await server?.db.destroy();
});

function pdfForm(name: string, requiresFeedback?: boolean): FormData {
  const body = new FormData();
  if (requiresFeedback !== undefined) body.append("requiresFeedback", String(requiresFeedback));
  body.append("file", new Blob([new Uint8Array(minimalPdf())], { type: "application/pdf" }), name);
  return body;
}

async function sendForApproval(name: string): Promise<string> {
  const response = await owner.agent.request("POST", `/api/clients/${client.id}/upload`, {
    body: pdfForm(name, true),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id;
}

async function mark(agent: TestAgent, messageId: string, version: number, fields: object) {
  const response = await agent.post(`/api/messages/${messageId}/versions/${version}/annotations`, {
    page: 1,
    x: 0.5,
    y: 0.5,
    width: 0,
    height: 0,
    ...fields,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string };
}

const marksOf = async (agent: TestAgent, messageId: string, version: number) =>
  (await agent.get(`/api/messages/${messageId}/versions/${version}/annotations`)).body as {
    id: string;
    comment: string;
    resolved: boolean;
    resolvedByName: string | null;
    carriedFromId: string | null;
    visibility: string;
  }[];

const openMarksOn = async (agent: TestAgent, messageId: string) => {
  const list = await agent.get(`/api/clients/${client.id}/attachments`);
  return (list.body as { id: string; openMarks: number }[]).find((m) => m.id === messageId)
    ?.openMarks;
};

describe("decisions that point", () => {
  it("counts open marks on the file, carries them to the next version, and approving resolves them", async () => {
    const fileId = await sendForApproval("poster.pdf");
    const logo = await mark(client.agent, fileId, 1, { comment: "Logo too small", page: 3 });
    const typo = await mark(client.agent, fileId, 1, { comment: "Typo in the headline" });
    const fixed = await mark(client.agent, fileId, 1, { comment: "Wrong blue" });
    await mark(owner.agent, fileId, 1, { comment: "Ask print shop", visibility: "internal" });
    await client.agent.patch(`/api/annotations/${fixed.id}`, { resolved: true });

    // The owner's conversation says "3 open marks" (their own staff-only one included).
    expect(await openMarksOn(owner.agent, fileId)).toBe(3);
    expect(await openMarksOn(client.agent, fileId)).toBe(2);

    const needsWork = await client.agent.patch(`/api/messages/${fileId}/feedback`, {
      feedbackStatus: "needs_work",
      feedbackComment: "See my marks",
    });
    expect(needsWork.body).toMatchObject({ feedbackStatus: "needs_work", openMarks: 2 });

    const second = await owner.agent.request("POST", `/api/messages/${fileId}/versions`, {
      body: pdfForm("poster-v2.pdf"),
    });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ versionNumber: 2, openMarks: 3 });
    const carried = await marksOf(client.agent, second.body.id, 2);
    expect(carried.map((m) => [m.comment, m.carriedFromId])).toEqual([
      ["Logo too small", logo.id],
      ["Typo in the headline", typo.id],
    ]);
    expect((await marksOf(owner.agent, fileId, 2)).map((m) => m.comment)).toEqual([
      "Logo too small",
      "Typo in the headline",
      "Ask print shop",
    ]);
    // The first version keeps its marks as they were.
    expect((await marksOf(client.agent, fileId, 1)).map((m) => m.resolved)).toEqual([
      false,
      false,
      true,
    ]);

    const approved = await client.agent.patch(`/api/messages/${second.body.id}/feedback`, {
      feedbackStatus: "approved",
    });
    expect(approved.body).toMatchObject({ feedbackStatus: "approved", openMarks: 0 });
    const after = await marksOf(owner.agent, second.body.id, 2);
    expect(after.map((m) => [m.comment, m.resolved, m.resolvedByName])).toEqual([
      ["Logo too small", true, "Carla Client"],
      ["Typo in the headline", true, "Carla Client"],
      // The team's own note is theirs to close.
      ["Ask print shop", false, null],
    ]);
    expect(await openMarksOn(owner.agent, second.body.id)).toBe(1);
  });

  it("lists the open marks in the email, whose Approve link still works and resolves them", async () => {
    const fileId = await sendForApproval("flyer.pdf");
    await mark(owner.agent, fileId, 1, { comment: "Please check the phone number", page: 2 });
    await mark(owner.agent, fileId, 1, { comment: "Staff only: margin", visibility: "internal" });
    const done = await mark(owner.agent, fileId, 1, { comment: "Already fixed" });
    await owner.agent.patch(`/api/annotations/${done.id}`, { resolved: true });
    await mark(owner.agent, fileId, 1, { comment: "Is the date right?" });

    (server.clock as TestClock).advanceMinutes(5);
    await server.jobs.runOnce("unanswered-messages");
    const mail = await server.smtp.waitFor(client.email, (m) => m.text.includes("flyer.pdf"));
    expect(mail.text).toContain(
      [
        "2 open marks on this file:",
        "- Mark 1, page 2: Please check the phone number",
        "- Mark 3, page 1: Is the date right?",
      ].join("\n"),
    );
    expect(mail.html).toContain(
      '<li style="margin:0 0 4px">Mark 1, page 2: Please check the phone number</li>',
    );
    expect(mail.text).not.toContain("Staff only");
    expect(mail.text).not.toContain("Already fixed");

    const token = linkIn(mail, "Approve").split("/").pop();
    const answer = await server.agent().post(`/api/feedback-links/${token}`, {});
    expect(answer.body).toMatchObject({ feedbackStatus: "approved" });
    expect((await marksOf(client.agent, fileId, 1)).every((m) => m.resolved)).toBe(true);
  });
});
