import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient, type JoinedClient, setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { minimalPdf } from "../../../tests/support/pdf";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { localDate } from "../../../shared/due-dates";

let server: TestServer;
let A: SignedInOwner;
let B: SignedInOwner;
let A1: JoinedClient;
let B1: JoinedClient;

beforeAll(async () => {
  server = await startTestServer();
  A = await signUpOwner(server, "Alice Owner");
  B = await signUpOwner(server, "Bob Owner");
  await setTier(A.id, "pro");
  A1 = await addJoinedClient(server, A, { name: "Client Of Alice" });
  B1 = await addJoinedClient(server, B, { name: "Client Of Bob" });
});
afterAll(() => server?.close());

/** The date `days` from today as a person in `timeZone` counts (UTC by default). */
function dayFromToday(days: number, timeZone = "UTC"): string {
  const today = localDate(server.clock.now(), timeZone);
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function pdfForm(fields: Record<string, string>, name = "brief.pdf"): FormData {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  body.append("file", new Blob([new Uint8Array(minimalPdf())], { type: "application/pdf" }), name);
  return body;
}

async function upload(fields: Record<string, string>, owner = A, clientId = A1.id) {
  return owner.agent.request("POST", `/api/clients/${clientId}/upload`, { body: pdfForm(fields) });
}

async function fileWithDueDate(dueDate: string): Promise<string> {
  const response = await upload({ requiresFeedback: "true", dueDate });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  expect(response.body.dueDate).toBe(dueDate);
  return response.body.id;
}

describe("a due date on an upload", () => {
  it("is kept with the file and shown to both sides", async () => {
    const dueDate = dayFromToday(3);
    const id = await fileWithDueDate(dueDate);
    for (const agent of [A.agent, A1.agent]) {
      const list = await agent.get(`/api/clients/${A1.id}/attachments`);
      expect(list.body.find((m: { id: string }) => m.id === id).dueDate).toBe(dueDate);
    }
    const messages = await A1.agent.get(`/api/clients/${A1.id}/messages`);
    expect(messages.body.find((m: { id: string }) => m.id === id).dueDate).toBe(dueDate);
  });

  it("may be today, and is null without one", async () => {
    await fileWithDueDate(dayFromToday(0));
    const plain = await upload({ requiresFeedback: "true" });
    expect(plain.status).toBe(201);
    expect(plain.body.dueDate).toBeNull();
  });

  it.each([
    ["2026-13-01", "dueDate is not a real date"],
    ["2027-02-29", "dueDate is not a real date"],
    ["tomorrow", "dueDate must be a date written YYYY-MM-DD"],
    ["2026-1-5", "dueDate must be a date written YYYY-MM-DD"],
  ])("refuses %s with a 400 that says why", async (dueDate, message) => {
    const response = await upload({ requiresFeedback: "true", dueDate });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message });
  });

  it("refuses a date in the past by the owner's time zone", async () => {
    const response = await upload({ requiresFeedback: "true", dueDate: dayFromToday(-1) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: "The due date can't be in the past" });
  });

  it("judges today in the owner's own time zone", async () => {
    // Kiritimati is 14 hours ahead of UTC: its today is UTC's tomorrow before 10:00 UTC, and
    // its yesterday can be UTC's today.
    const zone = "Pacific/Kiritimati";
    const saved = await A.agent.request("PUT", "/api/user/time-zone", { json: { timeZone: zone } });
    expect(saved.status).toBe(200);
    expect(saved.body.user.timeZone).toBe(zone);
    try {
      const yesterdayThere = dayFromToday(-1, zone);
      const response = await upload({ requiresFeedback: "true", dueDate: yesterdayThere });
      expect(response.status).toBe(400);
      await fileWithDueDate(dayFromToday(0, zone));
    } finally {
      await A.agent.request("PUT", "/api/user/time-zone", { json: { timeZone: "UTC" } });
    }
  });

  it("needs Requires feedback", async () => {
    const response = await upload({ dueDate: dayFromToday(2) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: "Only a file sent for approval can have a due date" });
  });

  it("is kept by a new version unless it brings its own", async () => {
    const first = dayFromToday(4);
    const id = await fileWithDueDate(first);
    const decide = (messageId: string) =>
      A1.agent.request("PATCH", `/api/messages/${messageId}/feedback`, {
        json: { feedbackStatus: "needs_work", feedbackComment: "Bigger logo" },
      });
    expect((await decide(id)).status).toBe(200);
    const kept = await A.agent.request("POST", `/api/messages/${id}/versions`, {
      body: pdfForm({}),
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(201);
    expect(kept.body.dueDate).toBe(first);

    expect((await decide(kept.body.id)).status).toBe(200);
    const later = dayFromToday(9);
    const moved = await A.agent.request("POST", `/api/messages/${id}/versions`, {
      body: pdfForm({ dueDate: later }),
    });
    expect(moved.status).toBe(201);
    expect(moved.body.dueDate).toBe(later);
    // The thread has one due date: every version shows it.
    const versions = await A1.agent.get(`/api/messages/${id}/versions`);
    expect(versions.body.map((v: { dueDate: string }) => v.dueDate)).toEqual([later, later, later]);
  });
});

describe("PATCH /api/messages/:messageId/due-date", () => {
  const patch = (agent: SignedInOwner["agent"], id: string, dueDate: unknown) =>
    agent.request("PATCH", `/api/messages/${id}/due-date`, { json: { dueDate } });

  it("lets the staff change and clear it", async () => {
    const id = await fileWithDueDate(dayFromToday(2));
    const changed = await patch(A.agent, id, dayFromToday(5));
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, dueDate: dayFromToday(5) });
    const seen = await A1.agent.get(`/api/clients/${A1.id}/attachments`);
    expect(seen.body.find((m: { id: string }) => m.id === id).dueDate).toBe(dayFromToday(5));
    const cleared = await patch(A.agent, id, null);
    expect(cleared.status).toBe(200);
    expect(cleared.body.dueDate).toBeNull();
  });

  it("refuses bad input with 400", async () => {
    const id = await fileWithDueDate(dayFromToday(2));
    expect((await patch(A.agent, id, "2026-02-30")).body).toEqual({
      message: "dueDate is not a real date",
    });
    expect((await patch(A.agent, id, dayFromToday(-3))).status).toBe(400);
    expect((await patch(A.agent, id, 20261203)).status).toBe(400);
    const extra = await A.agent.request("PATCH", `/api/messages/${id}/due-date`, {
      json: { dueDate: null, remind: true },
    });
    expect(extra.status).toBe(400);
    const plain = await upload({ requiresFeedback: "false" });
    expect((await patch(A.agent, plain.body.id, dayFromToday(2))).body).toEqual({
      message: "Only a file sent for approval can have a due date",
    });
  });

  it("is 403 for the client and 404 for anyone outside the conversation", async () => {
    const id = await fileWithDueDate(dayFromToday(2));
    const byClient = await patch(A1.agent, id, dayFromToday(3));
    expect(byClient.status).toBe(403);
    expect(byClient.body).toEqual({ message: "Only the owner can change the due date" });
    for (const agent of [B.agent, B1.agent]) {
      const outside = await patch(agent, id, dayFromToday(3));
      expect(outside.status).toBe(404);
      expect(outside.body).toEqual({ message: "Message not found" });
    }
    expect((await patch(server.agent(), id, dayFromToday(3))).status).toBe(401);
    expect((await patch(A.agent, "not-a-message", dayFromToday(3))).status).toBe(404);
    // Nothing moved.
    const list = await A.agent.get(`/api/clients/${A1.id}/attachments`);
    expect(list.body.find((m: { id: string }) => m.id === id).dueDate).toBe(dayFromToday(2));
  });
});

describe("PUT /api/user/time-zone", () => {
  it("stores the browser's zone for owners and clients", async () => {
    for (const [agent, zone] of [
      [B.agent, "America/Los_Angeles"],
      [B1.agent, "Asia/Tokyo"],
    ] as const) {
      const saved = await agent.request("PUT", "/api/user/time-zone", { json: { timeZone: zone } });
      expect(saved.status).toBe(200);
      expect((await agent.get("/api/user")).body.timeZone).toBe(zone);
    }
  });

  it.each(["Mars/Olympus_Mons", "", "UTC; drop table users"])("refuses %j", async (timeZone) => {
    const response = await B.agent.request("PUT", "/api/user/time-zone", { json: { timeZone } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: "timeZone must be a time zone such as Europe/Paris" });
  });
});
