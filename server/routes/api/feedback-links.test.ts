import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../../tests/support/clock";
import { addJoinedClient, setTier } from "../../../tests/support/conversations";
import { signUpOwner } from "../../../tests/support/factories";
import { testDatabase } from "../../../tests/support/database";
import {
  feedbackAsOwnerSees,
  type FileSentForApproval,
  sendFileForApproval,
} from "../../../tests/support/file-for-approval";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { minimalPdf } from "../../../tests/support/pdf";
import { linkIn } from "../../../tests/support/smtp";
import { TestSocket } from "../../../tests/support/ws-client";
import { FeedbackLink } from "../../models";

const NEEDS_WORK_COMMENT = "Please provide a comment when selecting 'Needs Work'";

let server: TestServer;
let clock: TestClock;
const logLines: string[] = [];
beforeAll(async () => {
  // The notification sweep takes every due row of its database: this file gets its own.
  server = await startTestServer({
    db: await testDatabase({ isolated: true }),
    env: { LOG_LEVEL: "info" },
    logDestination: { write: (line) => logLines.push(line) },
  });
  clock = server.clock as TestClock;
});
afterAll(async () => {
  await server?.close();
  await server?.db.destroy();
});

interface Sent extends FileSentForApproval {
  approveToken: string;
  needsWorkToken: string;
}

const tokenOf = (url: string) => url.split("/").pop() ?? "";

/** A file sent for approval, and the tokens of its email's Approve and Needs Work links. */
async function fileSentForApproval(name = "logo-draft.pdf"): Promise<Sent> {
  const sent = await sendFileForApproval(server, name);
  return {
    ...sent,
    approveToken: tokenOf(linkIn(sent.mail, "Approve")),
    needsWorkToken: tokenOf(linkIn(sent.mail, "Needs Work")),
  };
}

const fileAsOwnerSees = feedbackAsOwnerSees;

/** A caller with no cookies at all, as a mail scanner is. */
const stranger = () => server.agent();

describe("the email of a file sent for approval", () => {
  it("has Approve and Needs Work buttons, listed in the plain text too", async () => {
    const sent = await fileSentForApproval("brand-guide.pdf");
    expect(sent.mail.subject).toBe("New message from Olivia Owner");
    expect(sent.mail.text).toContain("Sent a file: brand-guide.pdf");
    expect(sent.mail.text).toMatch(
      /^Approve: http:\/\/127\.0\.0\.1:\d+\/client\/feedback\/[\w-]{43}$/m,
    );
    expect(sent.mail.text).toMatch(
      /^Needs Work: http:\/\/127\.0\.0\.1:\d+\/client\/feedback\/[\w-]{43}$/m,
    );
    expect(sent.approveToken).not.toBe(sent.needsWorkToken);
    expect(sent.mail.html).toContain(`href="${linkIn(sent.mail, "Approve")}"`);
    expect(sent.mail.html).toContain(`href="${linkIn(sent.mail, "Needs Work")}"`);
    expect(sent.mail.html).toContain('aria-label="Approve: brand-guide.pdf"');
    // White on the default #0093ff is 3.2:1; the buttons use a darker shade of it (4.5:1).
    expect(sent.mail.html).toContain('bgcolor="#0079d1" style="background:#0079d1');
    expect(sent.mail.html).toContain("border:2px solid #0079d1");
    // Only the hash is kept.
    const rows = await FeedbackLink.query().where({ messageId: sent.fileId });
    expect(rows.map((row) => row.decision).sort()).toEqual(["approve", "needs_work"]);
    expect(rows.every((row) => row.tokenHash.length === 64)).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(sent.approveToken);
    const days = (rows[0]!.expiresAt.getTime() - clock.now().getTime()) / 86_400_000;
    expect(days).toBeCloseTo(7, 2);
  });

  it("has no buttons for a file that does not ask for feedback, nor in the owner's email", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    await setTier(owner.id, "pro");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const body = new FormData();
    body.append(
      "file",
      new Blob([new Uint8Array(minimalPdf())], { type: "application/pdf" }),
      "notes.pdf",
    );
    expect(
      (await owner.agent.request("POST", `/api/clients/${client.id}/upload`, { body })).status,
    ).toBe(201);
    expect(
      (await client.agent.post(`/api/clients/${client.id}/messages`, { content: "Thanks!" }))
        .status,
    ).toBe(201);
    clock.advanceMinutes(5);
    await server.jobs.runOnce("unanswered-messages");
    const toOwner = await server.smtp.waitFor(owner.email, (m) => m.text.includes("Thanks!"));
    expect(toOwner.text).not.toMatch(/^Approve:/m);
  });
});

describe("after a decision from the email", () => {
  it("counts as the client coming back: the next message from the owner is emailed again", async () => {
    const sent = await fileSentForApproval();
    expect((await stranger().post(`/api/feedback-links/${sent.approveToken}`, {})).status).toBe(
      200,
    );
    const next = await sent.owner.agent.post(`/api/clients/${sent.client.id}/messages`, {
      content: "Thanks! Here is the invoice.",
    });
    expect(next.status).toBe(201);
    clock.advanceMinutes(5);
    await server.jobs.runOnce("unanswered-messages");
    const mail = await server.smtp.waitFor(sent.client.email, (m) =>
      m.text.includes("Thanks! Here is the invoice."),
    );
    // The decided file is not waiting any more: no buttons.
    expect(mail.text).not.toMatch(/^Approve:/m);
  });

  it("wears an agency owner's colour on the buttons, in a shade readable under white", async () => {
    const owner = await signUpOwner(server, "Ada Agency");
    await setTier(owner.id, "agency");
    const scheme = await owner.agent.patch("/api/user/color-scheme", {
      primaryColor: "#ff5500",
      backgroundColor: "#ffffff",
      textColor: "#000000",
    });
    expect(scheme.status, JSON.stringify(scheme.body)).toBe(200);
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const body = new FormData();
    body.append("requiresFeedback", "true");
    body.append(
      "file",
      new Blob([new Uint8Array(minimalPdf())], { type: "application/pdf" }),
      "a.pdf",
    );
    expect(
      (await owner.agent.request("POST", `/api/clients/${client.id}/upload`, { body })).status,
    ).toBe(201);
    clock.advanceMinutes(5);
    await server.jobs.runOnce("unanswered-messages");
    const mail = await server.smtp.waitFor(client.email, (m) => m.text.includes("a.pdf"));
    // #ff5500 under white is 3.0:1; its shade #d14600 is 4.5:1 or more.
    expect(mail.html).toContain('bgcolor="#d14600"');
    expect(mail.html).toContain("border:2px solid #d14600");
  });
});

describe("GET /api/feedback-links/:token (what a mail scanner does)", () => {
  it("describes the link and changes nothing, however often it is followed", async () => {
    const sent = await fileSentForApproval();
    for (const token of [sent.approveToken, sent.needsWorkToken, sent.approveToken]) {
      const scanner = stranger();
      // The page itself, then its data, as a scanner that runs scripts would.
      const page = await fetch(`${server.url}/client/feedback/${token}`, { redirect: "manual" });
      expect(page.headers.getSetCookie()).toEqual([]);
      const head = await fetch(`${server.url}/api/feedback-links/${token}`, { method: "HEAD" });
      expect(head.status).toBe(200);
      const answer = await scanner.get(`/api/feedback-links/${token}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.getSetCookie()).toEqual([]);
      expect(answer.body).toMatchObject({
        state: "open",
        decision: token === sent.approveToken ? "approve" : "needs_work",
        fileName: "logo-draft.pdf",
        clientId: sent.client.id,
        messageId: sent.fileId,
        ownerName: "Olivia Owner",
        feedbackStatus: "pending",
        feedbackComment: null,
      });
      // The scanner is not signed in as anyone.
      expect((await scanner.get("/api/user")).status).toBe(401);
    }
    expect(await fileAsOwnerSees(sent)).toMatchObject({
      feedbackStatus: "pending",
      feedbackComment: null,
    });
    const rows = await FeedbackLink.query().where({ messageId: sent.fileId });
    expect(rows.every((row) => row.usedAt === null)).toBe(true);
  });

  it("names the owner as the portal does: the company name when there is one", async () => {
    const sent = await fileSentForApproval();
    const profile = await sent.owner.agent.patch("/api/user/profile", {
      fullName: "Olivia Owner",
      companyName: "Studio Olivia",
    });
    expect(profile.status).toBe(200);
    const answer = await stranger().get(`/api/feedback-links/${sent.approveToken}`);
    expect(answer.body.ownerName).toBe("Studio Olivia");
  });

  it("answers 404 for an unknown or malformed token", async () => {
    const unknown = await stranger().get(`/api/feedback-links/${"A".repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: "This link is not valid." });
    expect((await stranger().get("/api/feedback-links/not-a-token")).status).toBe(404);
    expect((await stranger().post(`/api/feedback-links/${"A".repeat(43)}`, {})).status).toBe(404);
  });
});

describe("POST /api/feedback-links/:token (the page's confirm button)", () => {
  it("approves as in the app: the state, feedback_updated to both sides, the browser signed in", async () => {
    const sent = await fileSentForApproval();
    const ownerSocket = await TestSocket.open(server.url, {
      cookie: sent.owner.agent.cookieHeader,
    });
    const clientSocket = await TestSocket.open(server.url, {
      cookie: sent.client.agent.cookieHeader,
    });
    try {
      const browser = stranger();
      const answer = await browser.post(`/api/feedback-links/${sent.approveToken}`, {});
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toEqual({
        success: true,
        message: "File approved",
        feedbackStatus: "approved",
        clientId: sent.client.id,
        messageId: sent.fileId,
        signedIn: true,
      });
      const event = { type: "feedback_updated", clientId: sent.client.id, messageId: sent.fileId };
      expect(await ownerSocket.waitFor((e) => e.type === "feedback_updated")).toEqual(event);
      expect(await clientSocket.waitFor((e) => e.type === "feedback_updated")).toEqual(event);
      expect(await fileAsOwnerSees(sent)).toMatchObject({ feedbackStatus: "approved" });
      const versions = await sent.owner.agent.get(`/api/messages/${sent.fileId}/versions`);
      expect(versions.body[0]).toMatchObject({ feedbackByName: "Carla Client" });
      // This browser is now the client, so the way into the conversation opens.
      const me = await browser.get("/api/user");
      expect(me.body).toMatchObject({ role: "client", clientId: sent.client.id });
      expect((await browser.get(`/api/clients/${sent.client.id}/messages`)).status).toBe(200);
    } finally {
      ownerSocket.close();
      clientSocket.close();
    }
  });

  it("works once: the link then says used (410 on another try), and the other button says decided", async () => {
    const sent = await fileSentForApproval();
    expect((await stranger().post(`/api/feedback-links/${sent.approveToken}`, {})).status).toBe(
      200,
    );
    const again = await stranger().post(`/api/feedback-links/${sent.approveToken}`, {});
    expect(again.status).toBe(410);
    expect(again.body).toEqual({ message: "This link was already used." });
    expect((await stranger().get(`/api/feedback-links/${sent.approveToken}`)).body).toMatchObject({
      state: "used",
      feedbackStatus: "approved",
    });
    expect((await stranger().get(`/api/feedback-links/${sent.needsWorkToken}`)).body).toMatchObject(
      {
        state: "decided",
        feedbackStatus: "approved",
      },
    );
    const other = await stranger().post(`/api/feedback-links/${sent.needsWorkToken}`, {
      comment: "Hm",
    });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ message: "Feedback on this file was already given" });
    expect(await fileAsOwnerSees(sent)).toMatchObject({
      feedbackStatus: "approved",
      feedbackComment: null,
    });
  });

  it("takes exactly one of two confirmations sent at once", async () => {
    const sent = await fileSentForApproval();
    const answers = await Promise.all([
      stranger().post(`/api/feedback-links/${sent.approveToken}`, {}),
      stranger().post(`/api/feedback-links/${sent.approveToken}`, {}),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 410]);
  });

  it("sends Needs Work only with a comment, under the app's rules", async () => {
    const sent = await fileSentForApproval();
    for (const body of [{}, { comment: "" }, { comment: "   \n " }, { comment: null }]) {
      const refused = await stranger().post(`/api/feedback-links/${sent.needsWorkToken}`, body);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: NEEDS_WORK_COMMENT });
    }
    const tooLong = await stranger().post(`/api/feedback-links/${sent.needsWorkToken}`, {
      comment: "x".repeat(5_001),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ message: "Comments are limited to 5,000 characters" });
    const unknownField = await stranger().post(`/api/feedback-links/${sent.needsWorkToken}`, {
      comment: "Hi",
      feedbackStatus: "approved",
    });
    expect(unknownField.status).toBe(400);
    // Nothing was used up by the refusals.
    expect((await stranger().get(`/api/feedback-links/${sent.needsWorkToken}`)).body.state).toBe(
      "open",
    );

    const sentBack = await stranger().post(`/api/feedback-links/${sent.needsWorkToken}`, {
      comment: "  Please make the logo larger.\nAnd bluer.  ",
    });
    expect(sentBack.status, JSON.stringify(sentBack.body)).toBe(200);
    expect(sentBack.body).toMatchObject({ message: "Feedback sent", feedbackStatus: "needs_work" });
    expect(await fileAsOwnerSees(sent)).toMatchObject({
      feedbackStatus: "needs_work",
      feedbackComment: "Please make the logo larger.\nAnd bluer.",
    });
  });

  it("expires after 7 days, and the hourly cleanup then removes the link", async () => {
    const sent = await fileSentForApproval();
    clock.advanceMinutes(7 * 24 * 60 - 10);
    expect((await stranger().get(`/api/feedback-links/${sent.approveToken}`)).body.state).toBe(
      "open",
    );
    clock.advanceMinutes(10);
    expect((await stranger().get(`/api/feedback-links/${sent.approveToken}`)).body.state).toBe(
      "expired",
    );
    const late = await stranger().post(`/api/feedback-links/${sent.approveToken}`, {});
    expect(late.status).toBe(410);
    expect(late.body.message).toMatch(/expired/);
    expect(await fileAsOwnerSees(sent)).toMatchObject({ feedbackStatus: "pending" });
    await server.jobs.runOnce("feedback-links-cleanup");
    expect((await stranger().get(`/api/feedback-links/${sent.approveToken}`)).status).toBe(404);
    expect(await FeedbackLink.query().where({ messageId: sent.fileId })).toEqual([]);
  });

  it("answers 409 with the decision when the client already decided in the app", async () => {
    const sent = await fileSentForApproval();
    const inApp = await sent.client.agent.patch(`/api/messages/${sent.fileId}/feedback`, {
      feedbackStatus: "needs_work",
      feedbackComment: "Too dark.",
    });
    expect(inApp.status).toBe(200);
    expect((await stranger().get(`/api/feedback-links/${sent.approveToken}`)).body).toMatchObject({
      state: "decided",
      feedbackStatus: "needs_work",
      feedbackComment: "Too dark.",
    });
    const late = await stranger().post(`/api/feedback-links/${sent.approveToken}`, {});
    expect(late.status).toBe(409);
    expect(await fileAsOwnerSees(sent)).toMatchObject({
      feedbackStatus: "needs_work",
      feedbackComment: "Too dark.",
    });
    const row = await FeedbackLink.query().findOne({ messageId: sent.fileId, decision: "approve" });
    expect(row?.usedAt).toBeNull();
  });

  it("refuses the conversation's owner (the link stays live); another signed-in user decides for the client but stays who they are", async () => {
    const sent = await fileSentForApproval();
    const byOwner = await sent.owner.agent.post(`/api/feedback-links/${sent.approveToken}`, {});
    expect(byOwner.status).toBe(403);
    expect(byOwner.body.message).toMatch(/only they can decide/);
    expect((await sent.owner.agent.get("/api/user")).body).toMatchObject({ id: sent.owner.id });
    expect(await fileAsOwnerSees(sent)).toMatchObject({ feedbackStatus: "pending" });

    // Someone else's client, signed in on the browser that opens the link.
    const otherOwner = await signUpOwner(server, "Bob Owner");
    const elsewhere = await addJoinedClient(server, otherOwner, { name: "Someone Else" });
    const byOther = await elsewhere.agent.post(`/api/feedback-links/${sent.approveToken}`, {});
    expect(byOther.status).toBe(200);
    expect(byOther.body).toMatchObject({ feedbackStatus: "approved", signedIn: false });
    expect((await elsewhere.agent.get("/api/user")).body).toMatchObject({ clientId: elsewhere.id });
    expect((await elsewhere.agent.get(`/api/clients/${sent.client.id}/messages`)).status).toBe(404);
    const versions = await sent.owner.agent.get(`/api/messages/${sent.fileId}/versions`);
    expect(versions.body[0]).toMatchObject({
      feedbackStatus: "approved",
      feedbackByName: "Carla Client",
    });
  });

  it("refuses a cross-site confirmation", async () => {
    const sent = await fileSentForApproval();
    const forged = await stranger().post(
      `/api/feedback-links/${sent.approveToken}`,
      {},
      { origin: "https://evil.example" },
    );
    expect(forged.status).toBe(403);
    expect((await stranger().get(`/api/feedback-links/${sent.approveToken}`)).body.state).toBe(
      "open",
    );
  });

  it("keeps the tokens out of the log", async () => {
    const sent = await fileSentForApproval();
    await fetch(`${server.url}/client/feedback/${sent.approveToken}`);
    expect((await stranger().get(`/api/feedback-links/${sent.approveToken}`)).status).toBe(200);
    expect((await stranger().post(`/api/feedback-links/${sent.approveToken}`, {})).status).toBe(
      200,
    );
    const log = logLines.join("");
    expect(log).not.toContain(sent.approveToken);
    expect(log).not.toContain(sent.needsWorkToken);
    expect(log).toContain('"path":"/api/feedback-links/[redacted]"');
    expect(log).toContain('"path":"/client/feedback/[redacted]"');
  });

  it("dies with its client: deleting the client removes the links", async () => {
    const sent = await fileSentForApproval();
    expect((await sent.owner.agent.delete(`/api/clients/${sent.client.id}`)).status).toBe(200);
    expect((await stranger().get(`/api/feedback-links/${sent.approveToken}`)).status).toBe(404);
  });
});
