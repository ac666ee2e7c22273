import { createHash, randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../../tests/support/clock";
import { addJoinedContact, type JoinedContact } from "../../../tests/support/contacts";
import { addJoinedClient, type JoinedClient, setTier } from "../../../tests/support/conversations";
import { testDatabase } from "../../../tests/support/database";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { minimalPdf } from "../../../tests/support/pdf";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import { linkIn } from "../../../tests/support/smtp";
import { TestSocket } from "../../../tests/support/ws-client";

let server: TestServer;
let A: SignedInOwner;
let B: SignedInOwner;
let B1: JoinedClient;
let A2: JoinedClient;

beforeAll(async () => {
  // The notification sweep takes every due row of its database: this file gets its own.
  server = await startTestServer({ db: await testDatabase({ isolated: true }) });
  A = await signUpOwner(server, "Olivia Owner");
  B = await signUpOwner(server, "Bob Owner");
  await setTier(A.id, "agency");
  await setTier(B.id, "agency");
  A2 = await addJoinedClient(server, A, { name: "Other Client" });
  B1 = await addJoinedClient(server, B, { name: "Client Of Bob" });
});
afterAll(async () => {
  await server?.close();
  await server?.db.destroy();
});

interface Team {
  carla: JoinedClient;
  dora: JoinedContact;
}

/** A client of A's with two people who joined: Carla (the first contact) and Dora. */
async function clientWithTwoPeople(): Promise<Team> {
  const carla = await addJoinedClient(server, A, { name: "Carla Client" });
  const dora = await addJoinedContact(server, A, carla.id, { name: "Dora Director" });
  return { carla, dora };
}

function form(name: string, fields: Record<string, string>, bytes = minimalPdf(name)): FormData {
  const body = new FormData();
  for (const [field, value] of Object.entries(fields)) body.append(field, value);
  body.append("file", new Blob([new Uint8Array(bytes)], { type: "application/pdf" }), name);
  return body;
}

/** A's file for approval in `clientId`'s conversation, with `approvalRule` when given. */
async function sendForApproval(clientId: string, approvalRule?: string, name = "poster.pdf") {
  const fields: Record<string, string> = { requiresFeedback: "true" };
  if (approvalRule) fields.approvalRule = approvalRule;
  const response = await A.agent.request("POST", `/api/clients/${clientId}/upload`, {
    body: form(name, fields),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as MessageBody;
}

interface MessageBody {
  id: string;
  feedbackStatus: string;
  approvalRule?: string;
  approvals?: { userId: string; name: string; status: string; comment: string | null }[];
}

const decide = (agent: TestAgent, id: string, feedbackStatus: string, comment?: string) =>
  agent.patch(`/api/messages/${id}/feedback`, {
    feedbackStatus,
    ...(comment ? { feedbackComment: comment } : {}),
  });

/** The file as `agent`'s side lists it. */
async function fileAs(agent: TestAgent, clientId: string, id: string): Promise<MessageBody> {
  const list = await agent.get(`/api/clients/${clientId}/attachments`);
  expect(list.status).toBe(200);
  const found = (list.body as MessageBody[]).find((one) => one.id === id);
  if (!found) throw new Error(`${id} is not listed`);
  return found;
}

const decisions = (file: MessageBody) =>
  (file.approvals ?? []).map((one) => `${one.name}: ${one.status}`);

describe("who must approve", () => {
  it('"everyone": pending until both approved, each decision recorded once', async () => {
    const { carla, dora } = await clientWithTwoPeople();
    const socket = await TestSocket.open(server.url, { cookie: dora.agent.cookieHeader });
    const sent = await sendForApproval(carla.id, "everyone");
    // The new_message event carries who is asked (across instances on PostgreSQL too).
    const arrived = await socket.waitFor((event) => event.messageId === sent.id);
    expect(arrived.message?.approvals?.map((one) => one.name)).toEqual([
      "Carla Client",
      "Dora Director",
    ]);
    socket.close();
    expect(sent.approvalRule).toBe("everyone");
    expect(decisions(sent)).toEqual(["Carla Client: pending", "Dora Director: pending"]);

    const first = await decide(dora.agent, sent.id, "approved");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.feedbackStatus).toBe("pending");
    expect(decisions(first.body)).toEqual(["Carla Client: pending", "Dora Director: approved"]);
    // Once per person and version.
    const again = await decide(dora.agent, sent.id, "approved");
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("You already gave your feedback on this version");

    const second = await decide(carla.agent, sent.id, "approved");
    expect(second.status).toBe(200);
    expect(second.body.feedbackStatus).toBe("approved");
    const asOwner = await fileAs(A.agent, carla.id, sent.id);
    expect(asOwner.feedbackStatus).toBe("approved");
    expect(decisions(asOwner)).toEqual(["Carla Client: approved", "Dora Director: approved"]);
    expect(asOwner.approvals?.every((one) => one.userId && one.status === "approved")).toBe(true);
  });

  it('"everyone": one Needs Work sends it back, and the new version asks everyone again', async () => {
    const { carla, dora } = await clientWithTwoPeople();
    const sent = await sendForApproval(carla.id, "everyone");
    const answer = await decide(carla.agent, sent.id, "needs_work", "Bigger logo");
    expect(answer.body.feedbackStatus).toBe("needs_work");
    expect(answer.body.approvals).toMatchObject([
      { name: "Carla Client", status: "needs_work", comment: "Bigger logo" },
      { name: "Dora Director", status: "pending" },
    ]);
    // The version is decided: Dora's decision comes too late.
    expect((await decide(dora.agent, sent.id, "approved")).status).toBe(409);

    const version = await A.agent.request("POST", `/api/messages/${sent.id}/versions`, {
      body: form("poster-v2.pdf", {}),
    });
    expect(version.status).toBe(201);
    expect(version.body.approvalRule).toBe("everyone");
    expect(decisions(version.body)).toEqual(["Carla Client: pending", "Dora Director: pending"]);
  });

  it('"any" (the default): the first decision decides for all', async () => {
    const { carla, dora } = await clientWithTwoPeople();
    const sent = await sendForApproval(carla.id);
    expect(sent.approvalRule).toBe("any");
    expect(sent.approvals).toEqual([]);
    const answer = await decide(dora.agent, sent.id, "approved");
    expect(answer.body.feedbackStatus).toBe("approved");
    expect(decisions(answer.body)).toEqual(["Dora Director: approved"]);
    expect((await decide(carla.agent, sent.id, "approved")).status).toBe(409);
  });

  it("refuses an unknown rule with 400", async () => {
    const response = await A.agent.request("POST", `/api/clients/${A2.id}/upload`, {
      body: form("x.pdf", { requiresFeedback: "true", approvalRule: "most" }),
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('approvalRule must be "any" or "everyone"');
  });

  it("takes the people of the moment: one who joins later is not asked (403)", async () => {
    const { carla, dora } = await clientWithTwoPeople();
    const sent = await sendForApproval(carla.id, "everyone");
    const late = await addJoinedContact(server, A, carla.id, { name: "Lena Late" });
    const refused = await decide(late.agent, sent.id, "approved");
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("You are not asked to approve this version");
    expect(decisions(await fileAs(A.agent, carla.id, sent.id))).toEqual([
      "Carla Client: pending",
      "Dora Director: pending",
    ]);
    expect((await decide(dora.agent, sent.id, "approved")).status).toBe(200);
  });

  it("drops a person removed later: the version is approved by those who remain", async () => {
    const { carla, dora } = await clientWithTwoPeople();
    const sent = await sendForApproval(carla.id, "everyone");
    expect((await decide(carla.agent, sent.id, "approved")).body.feedbackStatus).toBe("pending");
    const removed = await A.agent.delete(`/api/clients/${carla.id}/contacts/${dora.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(300);
    const file = await fileAs(A.agent, carla.id, sent.id);
    expect(file.feedbackStatus).toBe("approved");
    expect(decisions(file)).toEqual(["Carla Client: approved"]);
  });
});

describe("the email's Approve and Needs Work links", () => {
  /** The unanswered-messages email to `email` that names `fileName`. */
  async function mailTo(email: string, fileName: string) {
    return server.smtp.waitFor(email, (mail) => mail.text.includes(fileName));
  }
  const tokenOf = (url: string) => url.split("/").pop() ?? "";

  it("record the decision of the person each email went to", async () => {
    const { carla, dora } = await clientWithTwoPeople();
    const sent = await sendForApproval(carla.id, "everyone", "flyer.pdf");
    (server.clock as TestClock).advanceMinutes(5);
    await server.jobs.runOnce("unanswered-messages");
    const toCarla = await mailTo(carla.email, "flyer.pdf");
    const toDora = await mailTo(dora.email, "flyer.pdf");

    const stranger = server.agent();
    const doraApproves = await stranger.post(
      `/api/feedback-links/${tokenOf(linkIn(toDora, "Approve"))}`,
      {},
    );
    expect(doraApproves.status, JSON.stringify(doraApproves.body)).toBe(200);
    expect(doraApproves.body).toMatchObject({
      feedbackStatus: "approved",
      message: "Your approval was recorded",
    });
    expect(decisions(await fileAs(A.agent, carla.id, sent.id))).toEqual([
      "Carla Client: pending",
      "Dora Director: approved",
    ]);
    // Dora's other link now says she decided.
    const doraAgain = await server
      .agent()
      .get(`/api/feedback-links/${tokenOf(linkIn(toDora, "Needs Work"))}`);
    expect(doraAgain.body).toMatchObject({ state: "decided", feedbackStatus: "pending" });

    const carlaApproves = await server
      .agent()
      .post(`/api/feedback-links/${tokenOf(linkIn(toCarla, "Approve"))}`, {});
    expect(carlaApproves.status).toBe(200);
    expect(carlaApproves.body).toMatchObject({
      feedbackStatus: "approved",
      message: "File approved",
    });
    const file = await fileAs(A.agent, carla.id, sent.id);
    expect(file.feedbackStatus).toBe("approved");
    expect(decisions(file)).toEqual(["Carla Client: approved", "Dora Director: approved"]);
  });

  it("are left out of the email of a person who already decided", async () => {
    const { carla, dora } = await clientWithTwoPeople();
    await sendForApproval(carla.id, "everyone", "banner.pdf");
    const sent = await sendForApproval(carla.id, "everyone", "menu.pdf");
    expect((await decide(dora.agent, sent.id, "approved")).status).toBe(200);
    (server.clock as TestClock).advanceMinutes(5);
    await server.jobs.runOnce("unanswered-messages");
    const toDora = await mailTo(dora.email, "menu.pdf");
    expect(toDora.text).toContain("Approve: ");
    expect(toDora.html).toContain('aria-label="Approve: banner.pdf"');
    expect(toDora.html).not.toContain('aria-label="Approve: menu.pdf"');
  });
});

/** The record's bytes as a signed-in browser downloads them. */
async function recordOf(agent: TestAgent, messageId: string) {
  const response = await fetch(`${agent.baseUrl}/api/messages/${messageId}/approval-record`, {
    headers: agent.cookieHeader ? { cookie: agent.cookieHeader } : {},
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** pdf.js draws the standard fonts from its own files (else it warns for every text run). */
const standardFontDataUrl = `${path.join(
  path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")),
  "standard_fonts",
)}/`;

/** The text of a PDF's first page, as pdf.js reads it. */
async function pdfText(bytes: Buffer): Promise<string> {
  const document = await getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    standardFontDataUrl,
  }).promise;
  const page = await document.getPage(1);
  const content = await page.getTextContent();
  const text = content.items.map((item) => ("str" in item ? item.str : "")).join("\n");
  await document.destroy();
  return text;
}

describe("GET /api/messages/:messageId/approval-record", () => {
  it("is a one-page PDF naming the file, version, SHA-256 and each approver", async () => {
    const { carla, dora } = await clientWithTwoPeople();
    const bytes = minimalPdf("Summer campaign poster");
    const first = await A.agent.request("POST", `/api/clients/${carla.id}/upload`, {
      body: form("summer-poster.pdf", { requiresFeedback: "true", approvalRule: "everyone" }),
    });
    await decide(carla.agent, first.body.id, "needs_work", "Warmer colours");
    const version = await A.agent.request("POST", `/api/messages/${first.body.id}/versions`, {
      body: form("summer-poster.pdf", {}, bytes),
    });
    expect(version.status).toBe(201);
    // Marks on version 2: the client's and a staff-only one (never on the record).
    const mark = (agent: TestAgent, comment: string, visibility?: string) =>
      agent.post(`/api/messages/${version.body.id}/versions/2/annotations`, {
        page: 1,
        x: 0.2,
        y: 0.3,
        width: 0,
        height: 0,
        comment,
        ...(visibility ? { visibility } : {}),
      });
    expect((await mark(dora.agent, "Is the date right?")).status).toBe(201);
    expect((await mark(A.agent, "Team only: check the print margins", "internal")).status).toBe(
      201,
    );
    await decide(dora.agent, version.body.id, "approved", "Looks great, ship it");
    await decide(carla.agent, version.body.id, "approved");

    for (const agent of [A.agent, carla.agent, dora.agent]) {
      const record = await recordOf(agent, version.body.id);
      expect(record.status).toBe(200);
      expect(record.headers.get("content-type")).toBe("application/pdf");
      expect(record.headers.get("content-disposition")).toContain(
        'attachment; filename="approval-record-summer-poster-v2.pdf"',
      );
      const pdf = await PDFDocument.load(record.bytes);
      expect(pdf.getPageCount()).toBe(1);
      const text = await pdfText(record.bytes);
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      expect(text).toContain(sha256);
      expect(text).toContain("summer-poster.pdf");
      expect(text).toMatch(/^2$/m);
      expect(text).toContain("Carla Client");
      expect(text).toMatch(/Approved by Dora Director on \d+ \w+ 2026, \d\d:\d\d UTC/);
      expect(text).toMatch(/Approved by Carla Client on/);
      expect(text).toContain("Looks great, ship it");
      expect(text).toContain("Olivia Owner");
      expect(text).toContain(`${bytes.length.toLocaleString("en-US")} bytes`);
      // The marks with their resolution (approving resolved them, by the last approver).
      expect(text).toContain("Marks on this version (1)");
      expect(text).toContain("#1 · page 1 · Dora Director");
      expect(text).toContain("Is the date right?");
      expect(text).toMatch(/Resolved by Carla Client on \d+ \w+ 2026/);
      expect(text).not.toContain("print margins");
    }
  });

  it('fits long content on one page: the marks list ends with "and N more"', async () => {
    const { carla } = await clientWithTwoPeople();
    const sent = await sendForApproval(carla.id, "any", "brochure.pdf");
    const long = "A very long comment about the colours and the layout. ".repeat(40);
    const { Annotation } = await import("../../models");
    const at = Date.now();
    await Annotation.query().insert(
      Array.from({ length: 120 }, (_, index) => ({
        id: randomUUID(),
        clientId: carla.id,
        messageId: sent.id,
        page: (index % 50) + 1,
        x: 0.1,
        y: 0.1,
        width: 0,
        height: 0,
        comment: `Mark ${index + 1}: ${long}`,
        authorName: "Carla Client",
        authorSide: "client" as const,
        visibility: "client" as const,
        createdAt: new Date(at + index),
      })),
    );
    await decide(carla.agent, sent.id, "approved", `${long} ✓ 日本語`);
    const record = await recordOf(A.agent, sent.id);
    expect(record.status).toBe(200);
    expect((await PDFDocument.load(record.bytes)).getPageCount()).toBe(1);
    const text = await pdfText(record.bytes);
    expect(text).toContain("Marks on this version (120)");
    expect(text).toContain("#1 · page 1 · Carla Client");
    const more = /and (\d+) more/.exec(text);
    expect(Number(more?.[1])).toBeGreaterThan(100);
    expect(text).not.toContain("#120 ");
  });

  it("answers the authorization matrix across workspaces and clients", async () => {
    const { carla, dora } = await clientWithTwoPeople();
    const pending = await sendForApproval(carla.id, "any", "pending.pdf");
    const approved = await sendForApproval(carla.id, "any", "approved.pdf");
    await decide(dora.agent, approved.id, "approved");
    const plain = await A.agent.request("POST", `/api/clients/${carla.id}/upload`, {
      body: form("plain.pdf", {}),
    });
    const agents: Record<string, TestAgent> = {
      anonymous: server.agent(),
      "owner B": B.agent,
      "B's client": B1.agent,
      "A's other client": A2.agent,
      "owner A": A.agent,
      Carla: carla.agent,
      Dora: dora.agent,
    };
    const expected: Record<string, number> = {
      anonymous: 401,
      "owner B": 404,
      "B's client": 404,
      "A's other client": 404,
      "owner A": 200,
      Carla: 200,
      Dora: 200,
    };
    for (const [who, agent] of Object.entries(agents)) {
      expect((await recordOf(agent, approved.id)).status, who).toBe(expected[who]);
      // Not approved (yet), not sent for approval, or not a message at all: no record.
      for (const id of [pending.id, plain.body.id, "00000000-0000-4000-8000-000000000000", "x"])
        expect((await recordOf(agent, id)).status, `${who} ${id}`).toBe(
          who === "anonymous" ? 401 : 404,
        );
    }
  });

  it("keeps the file's hash once computed", async () => {
    const { carla } = await clientWithTwoPeople();
    const sent = await sendForApproval(carla.id, "any", "kept.pdf");
    await decide(carla.agent, sent.id, "approved");
    expect((await recordOf(A.agent, sent.id)).status).toBe(200);
    const { StoredFile, Message } = await import("../../models");
    const message = await Message.query().findById(sent.id);
    const file = await StoredFile.query().findById(message!.fileId!);
    expect(file?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
