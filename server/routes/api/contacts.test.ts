import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedContact } from "../../../tests/support/contacts";
import { addJoinedClient, setTier } from "../../../tests/support/conversations";
import { signUpOwner, uniqueEmail } from "../../../tests/support/factories";
import { minimalPdf } from "../../../tests/support/pdf";
import type { TestClock } from "../../../tests/support/clock";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import type { ReceivedMail } from "../../../tests/support/smtp";
import { addStaff } from "../../../tests/support/team";

// Issue 26, several people per client: each contact has their own invite link, sign-in by
// email, notification delay and read state; removing one ends their sessions.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

async function agencyWithClient() {
  const owner = await signUpOwner(server, "Olga Owner");
  await setTier(owner.id, "agency");
  const client = await addJoinedClient(server, owner, { name: "Acme Corp" });
  return { owner, client };
}

describe("a client's contacts", () => {
  it("invites a second person who joins by their own link and works in the same conversation", async () => {
    const { owner, client } = await agencyWithClient();
    const email = uniqueEmail("dora");
    const added = await owner.agent.post(`/api/clients/${client.id}/contacts`, {
      name: "Dora Director",
      email,
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      id: expect.any(String),
      name: "Dora Director",
      email,
      inviteUrl: `${server.url}/invite/${added.body.inviteToken}`,
      inviteToken: expect.any(String),
    });
    // The invite is emailed to them, in the agency's name.
    await server.mailSettled();
    const mail = await server.smtp.waitFor(email, (m) => m.text.includes(added.body.inviteToken));
    expect(mail.text).toContain(`/invite/${added.body.inviteToken}`);

    const dora = server.agent();
    const joined = await dora.post(`/api/invite/${added.body.inviteToken}`);
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ clientId: client.id });
    expect((await dora.get("/api/user")).body).toMatchObject({
      role: "client",
      clientId: client.id,
      fullName: "Dora Director",
    });
    // The link works once.
    expect((await server.agent().post(`/api/invite/${added.body.inviteToken}`)).status).toBe(410);

    const path = `/api/clients/${client.id}/messages`;
    expect((await owner.agent.post(path, { content: "Hello Acme" })).status).toBe(201);
    const portal = await dora.get(`/api/portal/${client.id}`);
    expect(portal.status).toBe(200);
    expect(portal.body.messages.messages.map((m: { content: string }) => m.content)).toEqual([
      "Hello Acme",
    ]);
    expect((await dora.post(path, { content: "Dora here, I approve things" })).status).toBe(201);
    const seen = await owner.agent.get(path);
    expect(seen.body.at(-1)).toMatchObject({
      content: "Dora here, I approve things",
      senderRole: "client",
      authorName: "Dora Director",
    });

    // Both contacts, the client itself first; only Dora has read anything yet.
    const hello = seen.body[0].id;
    expect(
      (await dora.post(`${path.replace("/messages", "")}/read`, { messageId: hello })).status,
    ).toBe(200);
    const contacts = await owner.agent.get(`/api/clients/${client.id}/contacts`);
    expect(contacts.status).toBe(200);
    expect(contacts.body).toEqual([
      expect.objectContaining({ id: client.id, name: "Acme Corp", primary: true, lastReadSeq: 0 }),
      expect.objectContaining({
        id: added.body.id,
        name: "Dora Director",
        email,
        primary: false,
        joinedAt: expect.any(String),
        readAt: expect.any(String),
      }),
    ]);
    expect(contacts.body[1].lastReadSeq).toBeGreaterThan(0);
    // The client's people see who is in the conversation too.
    expect((await client.agent.get(`/api/clients/${client.id}/contacts`)).body).toHaveLength(2);
  });

  it("keeps each contact's own email delay", async () => {
    const { owner, client } = await agencyWithClient();
    const dora = await addJoinedContact(server, owner, client.id);
    const settings = `/api/clients/${client.id}/notification-settings`;
    expect((await dora.agent.patch(settings, { emailNotificationDelay: 45 })).status).toBe(200);
    const delayOf = async (agent: typeof dora.agent) =>
      (await agent.get(`/api/portal/${client.id}`)).body.client.emailNotificationDelay;
    expect(await delayOf(dora.agent)).toBe(45);
    expect(await delayOf(client.agent)).toBe(5);
  });

  it("emails each joined person after their own delay", async () => {
    const { owner, client } = await agencyWithClient();
    const dora = await addJoinedContact(server, owner, client.id);
    const settings = `/api/clients/${client.id}/notification-settings`;
    expect((await dora.agent.patch(settings, { emailNotificationDelay: 30 })).status).toBe(200);
    const path = `/api/clients/${client.id}/messages`;
    expect((await owner.agent.post(path, { content: "The invoice is ready" })).status).toBe(201);
    const clock = server.clock as TestClock;
    const about = (m: ReceivedMail) => m.text.includes("The invoice is ready");

    clock.advanceMinutes(5);
    await server.jobs.runOnce("unanswered-messages");
    await server.mailSettled();
    await server.smtp.waitFor(client.email, about);
    expect(server.smtp.mailsTo(dora.email).filter(about)).toHaveLength(0);

    clock.advanceMinutes(25);
    await server.jobs.runOnce("unanswered-messages");
    await server.mailSettled();
    await server.smtp.waitFor(dora.email, about);
    expect(server.smtp.mailsTo(client.email).filter(about)).toHaveLength(1);
  });

  it("shows which contact decided on a file", async () => {
    const { owner, client } = await agencyWithClient();
    const dora = await addJoinedContact(server, owner, client.id);
    const body = new FormData();
    body.append("requiresFeedback", "true");
    body.append(
      "file",
      new Blob([new Uint8Array(minimalPdf())], { type: "application/pdf" }),
      "logo.pdf",
    );
    const upload = await owner.agent.request("POST", `/api/clients/${client.id}/upload`, { body });
    expect(upload.status).toBe(201);
    const decided = await dora.agent.patch(`/api/messages/${upload.body.id}/feedback`, {
      feedbackStatus: "approved",
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const versions = await owner.agent.get(`/api/messages/${upload.body.id}/versions`);
    expect(versions.body[0]).toMatchObject({
      feedbackStatus: "approved",
      feedbackByName: "Dora Director",
    });
  });

  it("signs a contact in by email, and no longer once removed", async () => {
    const { owner, client } = await agencyWithClient();
    const dora = await addJoinedContact(server, owner, client.id);
    await server.agent().post("/api/client-sign-in-link", { email: dora.email });
    await server.mailSettled();
    const mail = await server.smtp.waitFor(dora.email, (m) =>
      m.text.includes("/client/sign-in?token="),
    );
    const token = mail.text.match(/\/client\/sign-in\?token=([A-Za-z0-9_-]+)/)?.[1];
    const browser = server.agent();
    const signedIn = await browser.post("/api/client-sign-in", { token });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ clientId: client.id });
    const path = `/api/clients/${client.id}/messages`;
    expect((await browser.post(path, { content: "Signed in by email" })).status).toBe(201);

    const removed = await owner.agent.delete(`/api/clients/${client.id}/contacts/${dora.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true, message: "Contact removed" });
    // Every session of theirs has ended.
    expect((await dora.agent.get(`/api/portal/${client.id}`)).status).toBe(401);
    expect((await browser.get(path)).status).toBe(401);
    // No sign-in link any more; what they wrote stays, under their name.
    const before = server.smtp.mailsTo(dora.email).length;
    await server.agent().post("/api/client-sign-in-link", { email: dora.email });
    await server.mailSettled();
    expect(server.smtp.mailsTo(dora.email)).toHaveLength(before);
    const messages = await owner.agent.get(path);
    expect(messages.body.at(-1)).toMatchObject({
      content: "Signed in by email",
      authorName: "Dora Director",
    });
    expect((await owner.agent.get(`/api/clients/${client.id}/contacts`)).body).toHaveLength(1);
  });

  it("refuses bad input, a second contact with the same address and the first contact's removal", async () => {
    const { owner, client } = await agencyWithClient();
    const path = `/api/clients/${client.id}/contacts`;
    const bad = await owner.agent.post(path, { name: "", email: "not-an-address" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(expect.any(String));
    const twice = await owner.agent.post(path, {
      name: "Carla again",
      email: client.email.toUpperCase(),
    });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ message: "This person is already a contact of this client" });
    const first = await owner.agent.delete(`${path}/${client.id}`);
    expect(first.status).toBe(409);
    expect(first.body).toEqual({
      message: "The first contact is the client itself: delete the client to remove them",
    });
    expect((await owner.agent.delete(`${path}/not-an-id`)).status).toBe(404);
    expect((await owner.agent.get(path)).body).toHaveLength(1);
  });

  it("allows at most 10 people per client", async () => {
    const { owner, client } = await agencyWithClient();
    const path = `/api/clients/${client.id}/contacts`;
    for (let n = 2; n <= 10; n += 1) {
      const added = await owner.agent.post(path, {
        name: `Person ${n}`,
        email: uniqueEmail("p"),
        sendInviteEmail: false,
      });
      expect(added.status).toBe(201);
    }
    const eleventh = await owner.agent.post(path, { name: "Eleven", email: uniqueEmail("p") });
    expect(eleventh.status).toBe(400);
    expect(eleventh.body).toEqual({ message: "A client can have up to 10 contacts" });
  });

  it("answers 404 to other workspaces and unassigned members, 403 to the client's people adding", async () => {
    const { owner, client } = await agencyWithClient();
    const stranger = await signUpOwner(server, "Stranger");
    const member = await addStaff(server, owner, "member", "Mia Member");
    const path = `/api/clients/${client.id}/contacts`;
    const input = { name: "Eve", email: uniqueEmail("eve"), sendInviteEmail: false };
    for (const agent of [stranger.agent, member.agent]) {
      expect((await agent.get(path)).status).toBe(404);
      expect((await agent.post(path, input)).status).toBe(404);
    }
    const asClient = await client.agent.post(path, input);
    expect(asClient.status).toBe(403);
    expect(asClient.body).toEqual({ message: "Only the owner of this conversation can do that" });
    // An assigned member may invite the client's people.
    await owner.agent.put(`/api/clients/${client.id}/assignees`, { userIds: [member.id] });
    expect((await member.agent.post(path, input)).status).toBe(201);
    // A contact of another client: 404 too.
    const other = await addJoinedClient(server, owner, { name: "Beta" });
    const otherContact = await addJoinedContact(server, owner, other.id);
    expect((await otherContact.agent.get(path)).status).toBe(404);
    expect((await otherContact.agent.get(`/api/clients/${client.id}/messages`)).status).toBe(404);
    const dora = (await owner.agent.get(`/api/clients/${other.id}/contacts`)).body[1];
    expect((await owner.agent.delete(`${path}/${dora.id}`)).status).toBe(404);
  });
});
