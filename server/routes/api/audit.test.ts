import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentFromIp, addClient, freshIp, setTier } from "../../../tests/support/conversations";
import {
  type SignedInOwner,
  signUpOwner,
  startConversation,
} from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { csvCell } from "../../presenters/audit-entry";

// Issue 26, part 8: the audit log. Owners and admins see who did what in their workspace and
// when, a page at a time or as a CSV download; entries are kept 400 days.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: "true" } });
});
afterAll(() => server?.close());

/** Sign-ups from addresses of their own: this file makes more people than one IP may. */
const people = () => ({
  agent: () => new AgentFromIp(server.url, freshIp()),
  smtp: server.smtp,
});

const FORBIDDEN = { message: "Only the workspace's owner and admins can see the audit log" };
const DAY_MS = 24 * 3_600_000;

interface Entry {
  id: string;
  at: string;
  actorName: string;
  action: string;
  subjectLabel: string;
  details: Record<string, unknown>;
}

async function agencyOwner(fullName = "Olga Owner"): Promise<SignedInOwner> {
  const owner = await signUpOwner(people(), fullName);
  await setTier(owner.id, "agency");
  return owner;
}

async function invite(inviter: SignedInOwner, email: string, role = "member") {
  const answer = await inviter.agent.post("/api/team/members", { email, role });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; inviteToken: string };
}

async function teammate(owner: SignedInOwner, role = "member", fullName = "Mia Member") {
  const person = await signUpOwner(people(), fullName);
  const { inviteToken } = await invite(owner, person.email, role);
  const joined = await person.agent.post(`/api/team/invites/${inviteToken}`);
  expect(joined.status, JSON.stringify(joined.body)).toBe(200);
  return person;
}

/** The whole log as `who` pages through it, newest first. */
async function wholeLog(who: SignedInOwner, limit = 200): Promise<Entry[]> {
  const entries: Entry[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `?limit=${limit}&before=${cursor}` : `?limit=${limit}`;
    const page = await who.agent.get(`/api/team/audit${query}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    entries.push(...page.body.entries);
    cursor = page.body.nextCursor;
  } while (cursor);
  return entries;
}

/** What each entry says, oldest first: "actor | action | subject". */
const said = (entries: Entry[]) =>
  entries.map((entry) => `${entry.actorName} | ${entry.action} | ${entry.subjectLabel}`).reverse();

describe("GET /api/team/audit", () => {
  it("lists who did what and when: the team's changes, its clients, and sign-ins", async () => {
    const owner = await agencyOwner("Olga Owner");
    const startedAt = server.clock.now().getTime();
    const mia = await teammate(owner, "member", "Mia Member");
    expect((await owner.agent.patch(`/api/team/members/${mia.id}`, { role: "admin" })).status).toBe(
      200,
    );
    const client = await addClient(owner, { name: "Acme Corp" });
    const assigned = await owner.agent.put(`/api/clients/${client.id}/assignees`, {
      userIds: [mia.id, owner.id],
      leadUserId: mia.id,
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect((await owner.agent.post(`/api/clients/${client.id}/invite`)).status).toBe(200);
    // Mia, an admin now, signs in on another browser.
    const miaAgain = new AgentFromIp(server.url, freshIp());
    const signedIn = await miaAgain.post("/api/login", {
      username: mia.email,
      password: mia.password,
    });
    expect(signedIn.status).toBe(200);
    expect((await miaAgain.delete(`/api/clients/${client.id}`)).status).toBe(200);
    expect((await owner.agent.delete(`/api/team/members/${mia.id}`)).status).toBe(200);
    const endedAt = server.clock.now().getTime();

    const entries = await wholeLog(owner);
    expect(said(entries)).toEqual([
      `Olga Owner | member.invited | ${mia.email}`,
      "Mia Member | member.joined | Mia Member",
      "Olga Owner | member.role_changed | Mia Member",
      "Olga Owner | client.added | Acme Corp",
      "Olga Owner | client.assigned | Acme Corp",
      "Olga Owner | client.invite_reissued | Acme Corp",
      "Mia Member | staff.signed_in | Mia Member",
      "Mia Member | client.deleted | Acme Corp",
      "Olga Owner | member.removed | Mia Member",
    ]);
    expect(entries.map((entry) => entry.details).reverse()).toEqual([
      { role: "member" },
      { role: "member" },
      { previousRole: "member", role: "admin" },
      {},
      { assignees: ["Mia Member", "Olga Owner"] },
      {},
      { method: "password" },
      {},
      {},
    ]);
    for (const entry of entries) {
      const at = Date.parse(entry.at);
      expect(at).toBeGreaterThanOrEqual(startedAt);
      expect(at).toBeLessThanOrEqual(endedAt);
      expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
    }
    // Newest first.
    const times = entries.map((entry) => Date.parse(entry.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("shows a reissued team invite and an admin sees the log too", async () => {
    const owner = await agencyOwner("Olga Owner");
    const ada = await teammate(owner, "admin", "Ada Admin");
    await invite(ada, "mia@example.com", "member");
    await invite(ada, "mia@example.com", "admin");
    const entries = await wholeLog(ada);
    expect(entries.slice(0, 2).map((entry) => [entry.actorName, entry.details])).toEqual([
      ["Ada Admin", { role: "admin", reissued: true }],
      ["Ada Admin", { role: "member" }],
    ]);
  });

  it("records a plan change by Billing", async () => {
    const owner = await agencyOwner("Paula Payer");
    await server
      .db("users")
      .where({ id: owner.id })
      .update({
        subscriptionStatus: "past_due",
        paymentFailureGraceEnd: new Date(server.clock.now().getTime() - 1000),
      });
    await server.jobs.runOnce("billing-grace-expiry");
    const [latest] = await wholeLog(owner);
    expect(latest).toMatchObject({
      actorName: "Billing",
      action: "plan.changed",
      subjectLabel: "Plan",
      details: { tier: "free" },
    });
  });

  it("pages newest first with an opaque cursor, without gaps or repeats", async () => {
    const owner = await agencyOwner();
    for (let i = 1; i <= 5; i += 1) await addClient(owner, { name: `Client ${i}` });
    const first = await owner.agent.get("/api/team/audit?limit=2");
    expect(first.status).toBe(200);
    expect(first.body.entries.map((entry: Entry) => entry.subjectLabel)).toEqual([
      "Client 5",
      "Client 4",
    ]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await owner.agent.get(`/api/team/audit?limit=2&before=${first.body.nextCursor}`);
    expect(second.body.entries.map((entry: Entry) => entry.subjectLabel)).toEqual([
      "Client 3",
      "Client 2",
    ]);
    const third = await owner.agent.get(`/api/team/audit?limit=2&before=${second.body.nextCursor}`);
    // Client 1, then the owner's sign-up has no entry (a sign-up is not a sign-in).
    expect(third.body.entries.map((entry: Entry) => entry.subjectLabel)).toEqual(["Client 1"]);
    expect(third.body.nextCursor).toBeNull();
    expect((await owner.agent.get("/api/team/audit?limit=0")).status).toBe(400);
    expect((await owner.agent.get("/api/team/audit?before=nonsense")).status).toBe(400);
  });

  it("never shows another workspace's entries, not even through its cursor", async () => {
    const one = await agencyOwner("One Owner");
    const two = await agencyOwner("Two Owner");
    await addClient(one, { name: "One's Client" });
    await addClient(one, { name: "One's Other Client" });
    await addClient(two, { name: "Two's Client" });
    expect(said(await wholeLog(one))).toEqual([
      "One Owner | client.added | One's Client",
      "One Owner | client.added | One's Other Client",
    ]);
    expect(said(await wholeLog(two))).toEqual(["Two Owner | client.added | Two's Client"]);
    const ones = await one.agent.get("/api/team/audit?limit=1");
    const peek = await two.agent.get(`/api/team/audit?before=${ones.body.nextCursor}`);
    expect(peek.status).toBe(200);
    expect(peek.body).toEqual({ entries: [], nextCursor: null });
    const csv = await two.agent.get("/api/team/audit.csv");
    expect(csv.status).toBe(200);
    expect(csv.body).toContain("Two's Client");
    expect(csv.body).not.toContain("One's");
  });

  it("is the owner's and admins': a member and a client get 403, a stranger 401", async () => {
    const owner = await agencyOwner();
    const member = await teammate(owner, "member");
    const { client } = await startConversation(people(), { tier: "pro" });
    for (const path of ["/api/team/audit", "/api/team/audit.csv"]) {
      const asMember = await member.agent.get(path);
      expect(asMember.status).toBe(403);
      expect(asMember.body).toEqual(FORBIDDEN);
      const asClient = await client.agent.get(path);
      expect(asClient.status).toBe(403);
      expect(asClient.body).toEqual(FORBIDDEN);
      expect((await server.agent().get(path)).status).toBe(401);
    }
  });

  it("records nothing for a refused action", async () => {
    const owner = await agencyOwner();
    const member = await teammate(owner, "member");
    const before = await wholeLog(owner);
    // Already in the team: 409. A member inviting: 403. A stranger assigned: 400.
    expect(
      (await owner.agent.post("/api/team/members", { email: member.email, role: "admin" })).status,
    ).toBe(409);
    expect(
      (await member.agent.post("/api/team/members", { email: "x@example.com", role: "admin" }))
        .status,
    ).toBe(403);
    const client = await addClient(owner, { name: "Kept Client" });
    const refused = await owner.agent.put(`/api/clients/${client.id}/assignees`, {
      userIds: [randomUUID()],
      leadUserId: null,
    });
    expect(refused.status).toBe(400);
    const wrongPassword = await new AgentFromIp(server.url, freshIp()).post("/api/login", {
      username: owner.email,
      password: "not the password",
    });
    expect(wrongPassword.status).toBe(401);
    const after = await wholeLog(owner);
    expect(said(after)).toEqual([...said(before), "Olga Owner | client.added | Kept Client"]);
  });
});

describe("GET /api/team/audit.csv", () => {
  it("downloads the log as CSV, quoted where needed and with formulas neutralized", async () => {
    const owner = await agencyOwner('=HYPERLINK("http://evil.test"), "Olga"');
    await addClient(owner, { name: "+1 555, Inc" });
    await addClient(owner, { name: "@SUM(A1)" });
    await addClient(owner, { name: "Plain Client" });
    const answer = await owner.agent.get("/api/team/audit.csv");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("content-disposition")).toMatch(
      /^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = (answer.body as string).replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe("Time (UTC),Who,What,Action,Subject,Details");
    expect(lines).toHaveLength(5); // header, three entries, the last line's end
    expect(lines[4]).toBe("");
    const name = `'=HYPERLINK(""http://evil.test""), ""Olga""`;
    const [plain, at, plus] = lines.slice(1, 4);
    expect(plain).toMatch(
      new RegExp(
        `^\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z,"${literally(name)}","${literally(name)} added the client Plain Client",client\\.added,Plain Client,$`,
      ),
    );
    expect(at).toContain(",'@SUM(A1),");
    expect(plus).toContain(`,"'+1 555, Inc",`);
  });

  it("escapes a cell's quotes, commas and line breaks, and neutralizes = + - @", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
    expect(csvCell("=1+2")).toBe("'=1+2");
    expect(csvCell("-2")).toBe("'-2");
    expect(csvCell("+2")).toBe("'+2");
    expect(csvCell("@cmd")).toBe("'@cmd");
    expect(csvCell("=a,b")).toBe(`"'=a,b"`);
    expect(csvCell("1-2")).toBe("1-2");
  });
});

describe("the audit-log-retention job", () => {
  it("deletes the entries older than 400 days and keeps the rest", async () => {
    const owner = await agencyOwner();
    const now = server.clock.now().getTime();
    const entry = (label: string, ageDays: number) => ({
      id: randomUUID(),
      workspaceId: owner.id,
      actorId: owner.id,
      actorName: "Olga Owner",
      action: "client.added",
      subjectType: "client",
      subjectLabel: label,
      details: "{}",
      createdAt: new Date(now - ageDays * DAY_MS),
    });
    await server
      .db("audit_entries")
      .insert([entry("too old", 401), entry("just old enough", 400.5), entry("kept", 399)]);
    await addClient(owner, { name: "New" });
    await server.jobs.runOnce("audit-log-retention");
    expect(said(await wholeLog(owner))).toEqual([
      "Olga Owner | client.added | kept",
      "Olga Owner | client.added | New",
    ]);
  });
});

/** A string for a RegExp that matches it literally. */
function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
