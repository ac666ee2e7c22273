import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../../tests/support/clock";
import { addClient, addJoinedClient, setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import { pdfOfSize, uploadFile } from "../../../tests/support/storage-files";
import { addStaff } from "../../../tests/support/team";
import { TestSocket } from "../../../tests/support/ws-client";
import { Client, Message, Session, User } from "../../models";

const DAY = 86_400_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

async function keepDeletedClients(owner: SignedInOwner, days: number) {
  const response = await owner.agent.request("PATCH", "/api/workspace/retention", {
    json: { days },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body).toEqual({ days });
}

/** Sends a sign-in link to the contact and follows it in their browser. */
async function signInByLink(contact: { email: string; agent: TestAgent }) {
  const earlier = new Set(server.smtp.mailsTo(contact.email));
  await server.agent().post("/api/client-sign-in-link", { email: contact.email });
  const mail = await server.smtp.waitFor(contact.email, (received) => !earlier.has(received));
  const token = /\/client\/sign-in\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  return contact.agent.post("/api/client-sign-in", { token });
}

describe("the retention setting", () => {
  it("is 0 (delete at once) by default, read by the staff and changed by the owner and admins", async () => {
    const owner = await signUpOwner(server);
    const admin = await addStaff(server, owner, "admin");
    const member = await addStaff(server, owner, "member");
    const client = await addJoinedClient(server, owner);
    expect((await member.agent.get("/api/workspace/retention")).body).toEqual({ days: 0 });

    await keepDeletedClients(owner, 30);
    expect((await admin.agent.get("/api/workspace/retention")).body).toEqual({ days: 30 });
    await keepDeletedClients(admin, 7);
    expect((await owner.agent.get("/api/workspace/retention")).body).toEqual({ days: 7 });

    const change = (agent: typeof owner.agent) =>
      agent.request("PATCH", "/api/workspace/retention", { json: { days: 90 } });
    expect((await change(member.agent)).body).toEqual({
      message: "Only the workspace's owner and admins can do that",
    });
    expect((await change(member.agent)).status).toBe(403);
    expect((await change(client.agent)).status).toBe(403);
    expect((await change(server.agent())).status).toBe(401);
    expect((await client.agent.get("/api/workspace/retention")).status).toBe(403);
    expect((await member.agent.get("/api/clients/deleted")).status).toBe(403);
    expect((await client.agent.get("/api/clients/deleted")).status).toBe(403);
    expect((await server.agent().get("/api/clients/deleted")).status).toBe(401);
    expect((await owner.agent.get("/api/workspace/retention")).body).toEqual({ days: 7 });
  });

  it("refuses days outside the choices, and unknown fields, changing nothing", async () => {
    const owner = await signUpOwner(server);
    const choices = "days must be one of 0, 7, 14, 30, 90";
    const cases: [unknown, string][] = [
      [{ days: 5 }, choices],
      [{ days: -7 }, choices],
      [{ days: 30.5 }, choices],
      [{ days: "30" }, choices],
      [{}, choices],
      [{ days: 30, purge: true }, "Unknown field: purge"],
    ];
    for (const [json, message] of cases) {
      const response = await owner.agent.request("PATCH", "/api/workspace/retention", { json });
      expect(response.status, JSON.stringify(json)).toBe(400);
      expect(response.body).toEqual({ message });
    }
    expect((await owner.agent.get("/api/workspace/retention")).body).toEqual({ days: 0 });
  });
});

describe("deleting a client while deleted clients are kept", () => {
  it("hides it from everyone at once, ends its people's access, and restores it whole", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const other = await signUpOwner(server, "Bob Owner");
    await setTier(owner.id, "pro");
    const admin = await addStaff(server, owner, "admin");
    await keepDeletedClients(owner, 30);
    const client = await addJoinedClient(server, owner, { name: "Kept Client" });
    const staying = await addJoinedClient(server, owner, { name: "Staying Client" });
    await client.agent.post(`/api/clients/${client.id}/messages`, { content: "zebra question" });
    const upload = await uploadFile(owner.agent, client.id, pdfOfSize(300), "zebra.pdf");
    expect(upload.status).toBe(201);
    const fileUrl: string = upload.body.fileUrl;
    const messagesBefore = (await owner.agent.get(`/api/clients/${client.id}/messages`)).body;
    const contactSocket = await TestSocket.open(server.url, { cookie: client.agent.cookieHeader });
    const adminSocket = await TestSocket.open(server.url, { cookie: admin.agent.cookieHeader });

    const deleted = await owner.agent.delete(`/api/clients/${client.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, message: "Client deleted successfully" });

    // Its people lose access at once, as with a deletion at once.
    await contactSocket.waitForClose();
    expect((await client.agent.get("/api/user")).status).toBe(401);
    expect(await Session.query().where("userId", client.userId).resultSize()).toBe(0);
    const mailsBefore = server.smtp.mailsTo(client.email).length;
    await server.agent().post("/api/client-sign-in-link", { email: client.email });
    await server.mailSettled();
    expect(server.smtp.mailsTo(client.email)).toHaveLength(mailsBefore);
    // The staff's pages hear of it.
    await adminSocket.waitFor(
      (event) => event.type === "client_access_changed" && event.clientId === client.id,
    );

    // For the staff it is gone everywhere.
    const ids = async (agent: typeof owner.agent) =>
      (await agent.get("/api/clients")).body.map((listed: { id: string }) => listed.id);
    expect(await ids(owner.agent)).toEqual([staying.id]);
    expect(await ids(admin.agent)).toEqual([staying.id]);
    const dashboard = (await owner.agent.get("/api/dashboard")).body;
    expect(JSON.stringify(dashboard)).not.toContain("Kept Client");
    expect((await owner.agent.get("/api/user/account-tier")).body.clientCount).toBe(1);
    expect((await owner.agent.get("/api/search?q=zebra")).body.results).toEqual([]);
    for (const agent of [owner.agent, admin.agent, other.agent]) {
      for (const path of [
        `/api/clients/${client.id}`,
        `/api/clients/${client.id}/messages`,
        `/api/clients/${client.id}/attachments`,
        `/api/clients/${client.id}/contacts`,
        `/api/search?q=zebra&clientId=${client.id}`,
        fileUrl,
      ]) {
        const response = await agent.get(path);
        expect(response.status, path).toBe(404);
      }
      const send = await agent.post(`/api/clients/${client.id}/messages`, { content: "hi" });
      expect(send.status).toBe(404);
      expect((await agent.delete(`/api/clients/${client.id}`)).status).toBe(404);
    }

    // Deleted clients: the owner and admins see it, with who deleted it and until when.
    const listed = await admin.agent.get("/api/clients/deleted");
    expect(listed.status).toBe(200);
    const deletedAt = (await Client.query().findById(client.id))!.deletedAt!;
    expect(listed.body).toEqual([
      {
        id: client.id,
        name: "Kept Client",
        email: client.email,
        deletedAt: deletedAt.toISOString(),
        deletedBy: "Olivia Owner",
        purgeAt: new Date(deletedAt.getTime() + 30 * DAY).toISOString(),
      },
    ]);
    expect((await other.agent.get("/api/clients/deleted")).body).toEqual([]);
    expect((await other.agent.post(`/api/clients/${client.id}/restore`)).status).toBe(404);
    expect((await owner.agent.post("/api/clients/not-a-uuid/restore")).status).toBe(404);

    // Restored: back with its conversation and files; its people sign in again by link.
    const restored = await admin.agent.post(`/api/clients/${client.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({
      id: client.id,
      name: "Kept Client",
      email: client.email,
    });
    await adminSocket.waitFor(
      (event) =>
        event.type === "client_access_changed" &&
        event.clientId === client.id &&
        adminSocket.events.filter((seen) => seen.type === "client_access_changed").length === 2,
    );
    expect((await owner.agent.get("/api/clients/deleted")).body).toEqual([]);
    expect(await ids(owner.agent)).toContain(client.id);
    expect((await owner.agent.get(`/api/clients/${client.id}/messages`)).body).toEqual(
      messagesBefore,
    );
    expect((await owner.agent.get(fileUrl)).status).toBe(200);
    expect((await signInByLink(client)).status).toBe(200);
    expect((await client.agent.get(`/api/clients/${client.id}/messages`)).status).toBe(200);
    expect((await client.agent.get(fileUrl)).status).toBe(200);
    expect((await owner.agent.post(`/api/clients/${client.id}/restore`)).status).toBe(404);
    adminSocket.close();
  });

  it("leaves a pending client's invite link dead until it is restored", async () => {
    const owner = await signUpOwner(server);
    await keepDeletedClients(owner, 7);
    const client = await addClient(owner);
    expect((await owner.agent.delete(`/api/clients/${client.id}`)).status).toBe(200);
    expect((await server.agent().post(`/api/invite/${client.inviteToken}`)).status).toBe(404);
    expect((await owner.agent.post(`/api/clients/${client.id}/restore`)).status).toBe(200);
    expect((await server.agent().post(`/api/invite/${client.inviteToken}`)).status).toBe(200);
  });

  it("frees the plan's place, and a restore past the plan's limit is refused", async () => {
    const owner = await signUpOwner(server);
    await keepDeletedClients(owner, 14);
    const first = await addClient(owner, { name: "First Client" });
    expect((await owner.agent.delete(`/api/clients/${first.id}`)).status).toBe(200);
    // The free plan's one place is free again.
    const second = await addClient(owner, { name: "Second Client" });

    const refused = await owner.agent.post(`/api/clients/${first.id}/restore`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message: "Client limit reached. Upgrade your Free plan to restore this client",
    });
    expect((await Client.query().findById(first.id))?.deletedAt).toBeInstanceOf(Date);
    expect((await owner.agent.get("/api/clients/deleted")).body).toHaveLength(1);

    expect((await owner.agent.delete(`/api/clients/${second.id}`)).status).toBe(200);
    expect((await owner.agent.post(`/api/clients/${first.id}/restore`)).status).toBe(200);
  });

  it("stops the unanswered-message emails of a deleted client", async () => {
    const owner = await signUpOwner(server);
    await setTier(owner.id, "pro");
    await keepDeletedClients(owner, 30);
    const deleted = await addJoinedClient(server, owner, { name: "Deleted Dana" });
    const live = await addJoinedClient(server, owner, { name: "Live Lena" });
    for (const client of [deleted, live])
      await client.agent.post(`/api/clients/${client.id}/messages`, { content: "anyone there?" });
    expect((await owner.agent.delete(`/api/clients/${deleted.id}`)).status).toBe(200);
    (server.clock as TestClock).advanceMinutes(30);
    await server.jobs.runOnce("unanswered-messages");
    await server.jobs.runOnce("mail-outbox");
    await server.smtp.waitFor(owner.email, (mail) => mail.subject === "New message from Live Lena");
    expect(server.smtp.mailsTo(owner.email).map((mail) => mail.subject)).not.toContain(
      "New message from Deleted Dana",
    );
  });

  it("follows the days as they are now: fewer days hide what is past them", async () => {
    const owner = await signUpOwner(server);
    await keepDeletedClients(owner, 30);
    const client = await addClient(owner);
    expect((await owner.agent.delete(`/api/clients/${client.id}`)).status).toBe(200);
    await User.query().patch({ deletedClientRetentionDays: 30 }).where("id", owner.id);
    await Client.query()
      .patch({ deletedAt: new Date(Date.now() - 10 * DAY) })
      .where("id", client.id);
    expect((await owner.agent.get("/api/clients/deleted")).body).toHaveLength(1);
    await keepDeletedClients(owner, 7);
    expect((await owner.agent.get("/api/clients/deleted")).body).toEqual([]);
    expect((await owner.agent.post(`/api/clients/${client.id}/restore`)).status).toBe(404);
  });
});

describe("deleting a client while deleted clients go at once (0, the default)", () => {
  it("removes it for good, as before", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    await client.agent.post(`/api/clients/${client.id}/messages`, { content: "hello" });
    expect((await owner.agent.delete(`/api/clients/${client.id}`)).status).toBe(200);
    expect(await Client.query().findById(client.id)).toBeUndefined();
    expect(await Message.query().where("clientId", client.id).resultSize()).toBe(0);
    expect((await owner.agent.get("/api/clients/deleted")).body).toEqual([]);
    expect((await owner.agent.post(`/api/clients/${client.id}/restore`)).status).toBe(404);
  });
});
