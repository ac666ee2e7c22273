import { DEFAULT_SHADES } from "../../../shared/defaults";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addClient, addJoinedClient, setTier } from "../../../tests/support/conversations";
import { signUpOwner, uniqueEmail } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { TestSocket } from "../../../tests/support/ws-client";
import { Client, EmailCode, Message, Session, ShortLink, User } from "../../models";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe("adding clients", () => {
  it("answers the invite links and lists the client as pending", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const email = uniqueEmail("carla");
    const response = await owner.agent.post("/api/clients", {
      name: "  Carla Client ",
      email: email.toUpperCase(),
    });
    expect(response.status).toBe(201);
    const { id, inviteToken } = response.body;
    expect(response.body).toEqual({
      id,
      name: "Carla Client",
      email,
      inviteUrl: `${server.url}/invite/${inviteToken}`,
      shortInviteUrl: null,
      inviteToken,
      inviteEmailSent: false,
    });
    expect(inviteToken).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const stored = await Client.query().findById(id);
    expect(stored?.inviteTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.inviteTokenHash).not.toContain(inviteToken);
    expect(stored?.inviteTokenEncrypted).not.toContain(inviteToken);

    const list = await owner.agent.get("/api/clients");
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        id,
        name: "Carla Client",
        email,
        inviteToken,
        joinedAt: null,
        emailNotificationDelay: 5,
        createdAt: expect.any(String),
        unreadCount: 0,
        awaitingReply: false,
        lastMessageAt: null,
        pendingApprovals: 0,
        owner: {
          fullName: "Olivia Owner",
          companyName: null,
          accountTier: "free",
          companyLogo: null,
          profilePicture: null,
          primaryColor: "#0093ff",
          backgroundColor: "#ffffff",
          textColor: "#000000",
          shades: DEFAULT_SHADES,
        },
        language: null,
      },
    ]);
    expect((await owner.agent.get(`/api/clients/${id}`)).body).toEqual(list.body[0]);
    expect((await owner.agent.get("/api/user/account-tier")).body).toMatchObject({
      clientCount: 1,
      canCreateMore: false,
    });
  });

  it("refuses a missing name, a bad email and unknown fields, and stores nothing", async () => {
    const owner = await signUpOwner(server);
    const cases: [unknown, string | RegExp][] = [
      [{ email: uniqueEmail() }, "Name is required"],
      [{ name: "   ", email: uniqueEmail() }, "Name is required"],
      [{ name: "Carla" }, "Email is required"],
      [{ name: "Carla", email: "not-an-email" }, "Please enter a valid email address"],
      [{ name: "Carla", email: uniqueEmail(), ownerId: owner.id }, /Unknown field: ownerId/],
      [{ name: "Carla", email: uniqueEmail(), joinedAt: "2020-01-01" }, /Unknown field/],
    ];
    for (const [body, message] of cases) {
      const response = await owner.agent.post("/api/clients", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.message).toMatch(message);
    }
    expect(await Client.query().where("ownerId", owner.id).resultSize()).toBe(0);
  });

  it("mails the invite link, with the owner's name, when asked", async () => {
    const owner = await signUpOwner(server, "Olivia <b>Owner</b>");
    await owner.agent.patch("/api/user/profile", {
      fullName: "Olivia <b>Owner</b>",
      companyName: "Ortega Studio",
    });
    const email = uniqueEmail("mailed");
    const added = await addClient(owner, { name: "Mia Mailed", email, sendInviteEmail: true });
    expect(added.response.body.inviteEmailSent).toBe(true);
    const mail = await server.smtp.waitFor(email);
    expect(mail.subject).toBe(
      "Olivia <b>Owner</b> (Ortega Studio) invited you to a conversation on ClientDesk",
    );
    expect(mail.text).toContain(added.response.body.inviteUrl);
    expect(mail.text).toContain("Hello Mia Mailed");
    // How a returning client gets back in once the link is used.
    expect(mail.text).toContain(
      `To come back later on any device, open ${server.url}/client and ask for a sign-in link`,
    );
    expect(mail.html).toContain(added.response.body.inviteUrl);
    expect(mail.html).toContain("Olivia &lt;b&gt;Owner&lt;/b&gt;");
    expect(mail.html).not.toContain("<b>Owner</b>");
  });

  it("mails nothing unless asked", async () => {
    const owner = await signUpOwner(server);
    const added = await addClient(owner);
    // A later invite that is mailed: once it is in, a mail for the first would have been too.
    const later = await addClient(await signUpOwner(server), { sendInviteEmail: true });
    await server.smtp.waitFor(later.email);
    await server.services.events.idle();
    await server.services.afterAnswer.idle();
    expect(server.smtp.mailsTo(added.email)).toHaveLength(0);
  });
});

describe("plan limits", () => {
  it("free: one client; pro: ten, with short links; agency: unlimited", async () => {
    const owner = await signUpOwner(server);
    await addClient(owner);
    const refused = await owner.agent.post("/api/clients", {
      name: "Second",
      email: uniqueEmail(),
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message: "Client limit reached. Upgrade your Free plan to add more clients",
    });
    expect(await Client.query().where("ownerId", owner.id).resultSize()).toBe(1);

    await setTier(owner.id, "pro");
    const second = await addClient(owner, { name: "Second" });
    expect(second.response.body.shortInviteUrl).toMatch(
      new RegExp(`^${server.url}/client\\?code=[A-Za-z0-9]{8}$`),
    );
    for (let i = 3; i <= 10; i += 1) await addClient(owner, { name: `Client ${i}` });
    const eleventh = await owner.agent.post("/api/clients", {
      name: "Eleventh",
      email: uniqueEmail(),
    });
    expect(eleventh.status).toBe(403);
    expect(eleventh.body.message).toBe(
      "Client limit reached. Upgrade your Pro plan to add more clients",
    );

    await setTier(owner.id, "agency");
    await addClient(owner, { name: "Eleventh" });
    expect(await Client.query().where("ownerId", owner.id).resultSize()).toBe(11);
  });

  it("holds when two adds arrive at the same moment", async () => {
    const owner = await signUpOwner(server);
    const responses = await Promise.all(
      [1, 2, 3].map((i) =>
        owner.agent.post("/api/clients", { name: `Racer ${i}`, email: uniqueEmail() }),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([201, 403, 403]);
    expect(await Client.query().where("ownerId", owner.id).resultSize()).toBe(1);
  });
});

describe("the client list", () => {
  it("shows unread counts and who waits for an answer, newest activity first", async () => {
    const owner = await signUpOwner(server);
    await setTier(owner.id, "pro");
    const quiet = await addClient(owner, { name: "Quiet" });
    const chatty = await addJoinedClient(server, owner, { name: "Chatty" });
    const answered = await addJoinedClient(server, owner, { name: "Answered" });

    for (const content of ["one", "two", "three"]) {
      expect(
        (await chatty.agent.post(`/api/clients/${chatty.id}/messages`, { content })).status,
      ).toBe(201);
    }
    await answered.agent.post(`/api/clients/${answered.id}/messages`, { content: "question" });
    await owner.agent.post(`/api/clients/${answered.id}/messages`, { content: "answer" });

    const list = (await owner.agent.get("/api/clients")).body as {
      id: string;
      [key: string]: unknown;
    }[];
    expect(list.map((c) => c.id)).toEqual([answered.id, chatty.id, quiet.id]);
    const byId = Object.fromEntries(list.map((c) => [c.id, c]));
    expect(byId[chatty.id]).toMatchObject({
      unreadCount: 3,
      awaitingReply: true,
      joinedAt: expect.any(String),
      inviteToken: null,
    });
    expect(byId[answered.id]).toMatchObject({ unreadCount: 0, awaitingReply: false });
    expect(byId[quiet.id]).toMatchObject({
      unreadCount: 0,
      awaitingReply: false,
      lastMessageAt: null,
      inviteToken: quiet.inviteToken,
    });

    // The client's own view of the same conversation counts from its side.
    const mine = (await answered.agent.get(`/api/clients/${answered.id}`)).body;
    expect(mine).toMatchObject({
      unreadCount: 1,
      awaitingReply: true,
      inviteToken: null,
      owner: { fullName: "Olivia Owner" },
    });
  });

  it("costs a fixed number of queries however many clients there are", async () => {
    const owner = await signUpOwner(server);
    await setTier(owner.id, "agency");
    const count = async () => {
      let queries = 0;
      const onQuery = () => {
        queries += 1;
      };
      server.services.sessionCache.clear();
      // A sent message's event row is deleted in the background: not this read's query.
      await server.services.events.idle();
      server.db.on("query", onQuery);
      const response = await owner.agent.get("/api/clients");
      server.db.removeListener("query", onQuery);
      return { queries, length: (response.body as unknown[]).length };
    };
    const joined = await addJoinedClient(server, owner);
    await joined.agent.post(`/api/clients/${joined.id}/messages`, { content: "hi" });
    const one = await count();
    for (let i = 0; i < 5; i += 1) await addClient(owner);
    const six = await count();
    expect(one.length).toBe(1);
    expect(six.length).toBe(6);
    expect(six.queries).toBe(one.queries);
  });
});

describe("deleting a client", () => {
  it("removes the client, its messages, short link and user, ends its session and closes its sockets", async () => {
    const owner = await signUpOwner(server);
    await setTier(owner.id, "pro");
    const client = await addJoinedClient(server, owner);
    await client.agent.post(`/api/clients/${client.id}/messages`, { content: "hello" });
    await owner.agent.post(`/api/clients/${client.id}/messages`, { content: "hi there" });
    expect(await ShortLink.query().where("clientId", client.id).resultSize()).toBe(1);
    const socket = await TestSocket.open(server.url, { cookie: client.agent.cookieHeader });

    const response = await owner.agent.delete(`/api/clients/${client.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: "Client deleted successfully" });

    await socket.waitForClose();
    expect((await client.agent.get("/api/user")).status).toBe(401);
    expect((await client.agent.get(`/api/clients/${client.id}/messages`)).status).toBe(401);
    expect(await Client.query().findById(client.id)).toBeUndefined();
    expect(await Message.query().where("clientId", client.id).resultSize()).toBe(0);
    expect(await ShortLink.query().where("clientId", client.id).resultSize()).toBe(0);
    expect(await User.query().findById(client.userId)).toBeUndefined();
    expect(await Session.query().where("userId", client.userId).resultSize()).toBe(0);
    expect(await EmailCode.query().where("userId", client.userId).resultSize()).toBe(0);
    expect((await owner.agent.get(`/api/clients/${client.id}`)).status).toBe(404);
    expect((await owner.agent.delete(`/api/clients/${client.id}`)).status).toBe(404);
    expect((await owner.agent.get("/api/clients")).body).toEqual([]);
    // The freed place on the plan can be used again, and the owner is unaffected.
    expect((await owner.agent.get("/api/user")).status).toBe(200);
  });

  it("of a pending client leaves a dead invite link", async () => {
    const owner = await signUpOwner(server);
    const client = await addClient(owner);
    expect((await owner.agent.delete(`/api/clients/${client.id}`)).status).toBe(200);
    const accept = await server.agent().post(`/api/invite/${client.inviteToken}`);
    expect(accept.status).toBe(404);
    await addClient(owner);
  });
});

describe("the client's notification setting", () => {
  it("is changed by the client only", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    const path = `/api/clients/${client.id}/notification-settings`;

    const byOwner = await owner.agent.patch(path, { emailNotificationDelay: 30 });
    expect(byOwner.status).toBe(403);
    expect(byOwner.body).toEqual({ message: "Only the client can change this setting" });

    for (const bad of [0, 61, 2.5, "10", null]) {
      expect((await client.agent.patch(path, { emailNotificationDelay: bad })).status).toBe(400);
    }
    expect(
      (await client.agent.patch(path, { emailNotificationDelay: 5, name: "Renamed" })).status,
    ).toBe(400);

    const ok = await client.agent.patch(path, { emailNotificationDelay: 30 });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true, message: "Settings updated" });
    expect((await client.agent.get(`/api/clients/${client.id}`)).body.emailNotificationDelay).toBe(
      30,
    );
    expect((await owner.agent.get(`/api/clients/${client.id}`)).body).toMatchObject({
      emailNotificationDelay: 30,
      name: client.name,
    });
    // The owner's own setting is separate.
    expect((await owner.agent.get("/api/user")).body.emailNotificationDelay).toBe(5);
  });
});
