import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient, setTier } from "../../../tests/support/conversations";
import { signUpOwner, uniqueEmail } from "../../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import { User } from "../../models";

const PDF =
  "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";

/** Input a browser would never send but anyone can: NUL and other controls, broken escapes. */
describe("hostile input", () => {
  let server: TestServer;
  const logLines: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({
      env: { LOG_LEVEL: "info" },
      logDestination: { write: (line) => void logLines.push(line) },
    });
  });
  afterAll(() => server?.close());

  const errorLines = () => logLines.filter((line) => /"level":(50|60)/.test(line));

  async function conversation() {
    const owner = await signUpOwner(server);
    await setTier(owner.id, "pro");
    const client = await addJoinedClient(server, owner);
    return { owner, client };
  }

  async function upload(agent: TestAgent, clientId: string, name: string) {
    const body = new FormData();
    body.append("requiresFeedback", "true");
    body.append("file", new Blob([PDF], { type: "application/pdf" }), name);
    return agent.request("POST", `/api/clients/${clientId}/upload`, { body });
  }

  it("keeps line feeds and tabs in a message and removes NUL and other controls", async () => {
    const { owner, client } = await conversation();
    const sent = await owner.agent.post(`/api/clients/${client.id}/messages`, {
      content: "Hello\u0000 there\r\nSecond\tline\u0007\u001b[31m\u0085",
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.content).toBe("Hello there\nSecond\tline[31m");

    const onlyNul = await owner.agent.post(`/api/clients/${client.id}/messages`, {
      content: "\u0000\u0000",
    });
    expect(onlyNul).toMatchObject({ status: 400, body: { message: "Message cannot be empty" } });
  });

  it("removes controls and line breaks from names: sign-up, profile, company, client", async () => {
    const agent = server.agent();
    const email = uniqueEmail("owner");
    const registered = await agent.post("/api/register", {
      email,
      password: "correct horse battery",
      fullName: "Nu\u0000ll\nName\u202e",
      role: "owner",
      accountTier: "free",
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    // The account is made after the answer (the answer must not tell whether it existed).
    await server.mailSettled();
    expect((await User.query().findOne({ email }))?.fullName).toBe("Null Name");

    const { owner } = await conversation();
    const profile = await owner.agent.patch("/api/user/profile", {
      fullName: "Olivia\u0000 Owner",
      companyName: "Acme\r\n\u0000Ltd\u2028",
    });
    expect(profile.status, JSON.stringify(profile.body)).toBe(200);
    const me = await owner.agent.get("/api/user");
    expect(me.body).toMatchObject({ fullName: "Olivia Owner", companyName: "Acme Ltd" });

    const added = await owner.agent.post("/api/clients", {
      name: "Carla\u0000\tClient",
      email: uniqueEmail("client"),
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.name).toBe("Carla Client");

    const blank = await owner.agent.patch("/api/user/profile", { fullName: "\u0000\n" });
    expect(blank).toMatchObject({ status: 400, body: { message: "Full name is required" } });
  });

  it("names the length limit of an overlong field", async () => {
    const { owner } = await conversation();
    const long = await owner.agent.patch("/api/user/profile", { fullName: "x".repeat(101) });
    expect(long).toMatchObject({
      status: 400,
      body: { message: "Full name must be at most 100 characters" },
    });
    const registered = await server.agent().post("/api/register", {
      email: uniqueEmail("owner"),
      password: "correct horse battery",
      fullName: "y".repeat(101),
      role: "owner",
      accountTier: "free",
    });
    expect(registered.body.message).toBe("Full name must be at most 100 characters");
    const password = await server
      .agent()
      .post("/api/login", { username: uniqueEmail("x"), password: "p".repeat(201) });
    expect(password).toMatchObject({ status: 400, body: { message: "Password is too long" } });
  });

  it("stores a cancellation reason and a feedback comment with NUL in them, cleaned", async () => {
    const { owner, client } = await conversation();
    const file = await upload(owner.agent, client.id, "Pla\u202en.pdf");
    expect(file.status, JSON.stringify(file.body)).toBe(201);
    expect(file.body.fileName).toBe("Plan.pdf");
    const decided = await client.agent.patch(`/api/messages/${file.body.id}/feedback`, {
      feedbackStatus: "needs_work",
      feedbackComment: "More\u0000 blue\nplease",
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.feedbackComment).toBe("More blue\nplease");

    // A paid subscription (test-mode checkout) to cancel.
    const checkout = await owner.agent.post("/api/subscription/create-checkout", {
      tier: "pro",
      period: "monthly",
    });
    const session = new URL(checkout.body.url).searchParams.get("session")!;
    const paid = await owner.agent.request("POST", "/billing/test-checkout", {
      body: new URLSearchParams({ session, outcome: "pay" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(paid.status).toBe(303);
    const cancelled = await owner.agent.post("/api/subscription/start-cancellation", {
      reason: "other",
      customReason: "Too\u0000 slow\u0007",
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const row = await User.query().findById(owner.id);
    expect(row?.cancellationDetails).toBe("Too slow");
  });

  it("answers NUL in ids, codes, tokens and query strings with 4xx", async () => {
    const { owner, client } = await conversation();
    const calls: [string, string][] = [
      ["GET", "/api/clients/%00"],
      ["GET", `/api/clients/${client.id}%00`],
      ["GET", `/api/clients/${client.id}/messages?before=%00`],
      ["GET", `/api/clients/${client.id}/messages?limit=%00`],
      ["GET", "/api/download/a%00b.png"],
      ["GET", "/api/short-link/%00abc"],
      ["POST", "/api/invite/%00abcdefghijklmnopqrstuvwxyz"],
      ["GET", "/api/messages/%00/versions"],
    ];
    for (const [method, path] of calls) {
      const answer = await owner.agent.request(method, path);
      expect(answer.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${method} ${path}`).toBeLessThan(500);
    }
    for (const json of [
      { email: "a\u0000@example.test", password: "whatever" },
      { username: "a\u0000@example.test", password: "x\u0000y" },
    ]) {
      const answer = await server.agent().post("/api/login", json);
      expect(answer.status).toBe(400);
    }
    const reset = await server.agent().post("/api/reset-password", {
      email: uniqueEmail("x"),
      token: "12\u000034",
      newPassword: "correct horse battery",
    });
    expect(reset.status).toBe(400);
    const signIn = await server
      .agent()
      .post("/api/client-sign-in", { token: `${"a".repeat(30)}\u0000` });
    expect(signIn.status).toBeGreaterThanOrEqual(400);
    expect(signIn.status).toBeLessThan(500);
    expect(errorLines()).toEqual([]);
  });

  it("answers malformed percent-escapes in any path with 400 {message} and logs no error", async () => {
    const { owner } = await conversation();
    for (const path of [
      "/%E0%A4%A",
      "/assets/%E0%A4%A.js",
      "/client/%ZZ",
      "/api/clients/%E0%A4%A",
      "/api/download/%E0%A4%A",
      "/api/clients/%E0%A4%A/messages",
    ]) {
      const answer = await owner.agent.get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toEqual({ message: expect.stringContaining("Malformed URL") });
    }
    expect(errorLines()).toEqual([]);
  });

  it("marks every API answer no-store, errors included; downloads keep their own policy", async () => {
    const { owner, client } = await conversation();
    const answers = [
      await owner.agent.get("/api/user"),
      await server.agent().get("/api/clients"),
      await owner.agent.get("/api/no-such-thing"),
      await owner.agent.post("/api/clients", { name: "" }),
      await owner.agent.get("/api/download/missing.png"),
    ];
    for (const answer of answers) expect(answer.headers.get("cache-control")).toBe("no-store");

    const file = await upload(owner.agent, client.id, "notes.pdf");
    const download = await owner.agent.get(file.body.fileUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get("cache-control")).toBe("private, max-age=3600");
  });
});
