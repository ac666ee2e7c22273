import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient, setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { addStaff } from "../../../tests/support/team";
import {
  pdfOfSize,
  smallPng,
  storedKeys,
  storedPath,
  uploadFile,
  uploadImage,
} from "../../../tests/support/storage-files";
import {
  deliverEvent,
  StripeStandIn,
  stripeEnv,
  stripeEvent,
} from "../../../tests/support/stripe-stand-in";
import { TestSocket } from "../../../tests/support/ws-client";
import { Client, Message, Session, ShortLink, StoredFile, User } from "../../models";

let server: TestServer;
let standIn: StripeStandIn;

beforeAll(async () => {
  standIn = new StripeStandIn();
  await standIn.start();
  server = await startTestServer({ env: stripeEnv(standIn) });
});
afterAll(async () => {
  await server?.close();
  await standIn?.stop();
});

const deleteAccount = (owner: { agent: SignedInOwner["agent"] }, body: unknown) =>
  owner.agent.post("/api/user/delete", body);

/** An owner with two clients, files from both sides, pictures and a paid subscription. */
async function busyOwner() {
  const owner = await signUpOwner(server, "Dora Deleter");
  await setTier(owner.id, "agency");
  const clients = [
    await addJoinedClient(server, owner, { name: "First Client" }),
    await addJoinedClient(server, owner, { name: "Second Client" }),
  ];
  for (const client of clients) {
    expect(
      (await owner.agent.post(`/api/clients/${client.id}/messages`, { content: "Hi" })).status,
    ).toBe(201);
    expect((await uploadFile(owner.agent, client.id, pdfOfSize(300))).status).toBe(201);
    expect((await uploadFile(client.agent, client.id, pdfOfSize(400))).status).toBe(201);
  }
  const png = await smallPng();
  expect(
    (await uploadImage(owner.agent, "/api/user/profile-picture", "profilePicture", png)).status,
  ).toBe(200);
  expect(
    (await uploadImage(owner.agent, "/api/user/company-logo", "companyLogo", png)).status,
  ).toBe(200);
  const customer = `cus_${owner.id.slice(0, 8)}`;
  const subscription = standIn.addSubscription({
    customer,
    metadata: { userId: owner.id, tier: "agency", period: "monthly" },
    periodEnd: Math.floor(Date.now() / 1000) + 30 * 86_400,
  });
  await User.query()
    .patch({
      stripeCustomerId: customer,
      stripeSubscriptionId: subscription.id,
      subscriptionStatus: "active",
    })
    .where("id", owner.id);
  return { owner, clients, subscription };
}

describe("POST /api/user/delete", () => {
  it("deletes every client, message, file and its bytes, session, picture and the subscription", async () => {
    const { owner, clients, subscription } = await busyOwner();
    const user = await User.query().findById(owner.id).throwIfNotFound();
    const files = await StoredFile.query().whereIn(
      "clientId",
      clients.map((client) => client.id),
    );
    expect(files).toHaveLength(4);
    const names = [
      ...files.map((file) => file.storedName),
      user.profilePicture!,
      user.companyLogo!,
    ];
    for (const name of names) expect(existsSync(storedPath(server.dataDir, name))).toBe(true);
    const ownerSocket = await TestSocket.open(server.url, { cookie: owner.agent.cookieHeader });
    const clientSocket = await TestSocket.open(server.url, {
      cookie: clients[0]!.agent.cookieHeader,
    });

    // A client may not delete the owner's account (nor, here, its own).
    expect((await deleteAccount(clients[0]!, { password: owner.password })).status).toBe(403);
    const wrong = await deleteAccount(owner, { password: "not the password" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ message: "Password is incorrect" });
    expect((await deleteAccount(owner, {})).status).toBe(400);
    expect(await User.query().findById(owner.id)).toBeDefined();
    expect(standIn.requestsTo("DELETE", `/v1/subscriptions/${subscription.id}`)).toHaveLength(0);

    const deleted = await deleteAccount(owner, { password: owner.password });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toEqual({ success: true, message: "Your account has been deleted" });

    // Signed out everywhere, and the account cannot be signed in to.
    expect((await owner.agent.get("/api/user")).status).toBe(401);
    expect((await clients[1]!.agent.get("/api/user")).status).toBe(401);
    await ownerSocket.closed;
    await clientSocket.closed;
    const signIn = await server
      .agent()
      .post("/api/login", { username: owner.email, password: owner.password });
    expect(signIn.status).toBe(401);

    // Nothing of the account is left.
    const clientIds = clients.map((client) => client.id);
    expect(
      await User.query().whereIn("id", [owner.id, ...clients.map((client) => client.userId)]),
    ).toEqual([]);
    expect(await Client.query().whereIn("id", clientIds)).toEqual([]);
    expect(await Message.query().whereIn("clientId", clientIds)).toEqual([]);
    expect(await StoredFile.query().whereIn("storedName", names)).toEqual([]);
    expect(await ShortLink.query().whereIn("clientId", clientIds)).toEqual([]);
    expect(
      await Session.query().whereIn("userId", [
        owner.id,
        ...clients.map((client) => client.userId),
      ]),
    ).toEqual([]);
    for (const name of names) expect(existsSync(storedPath(server.dataDir, name))).toBe(false);
    expect(
      storedKeys(server.dataDir).filter((key) => names.some((name) => key.startsWith(name))),
    ).toEqual([]);

    // The subscription was cancelled at once, and the owner was told.
    expect(standIn.requestsTo("DELETE", `/v1/subscriptions/${subscription.id}`)).toHaveLength(1);
    expect(standIn.subscriptions.get(subscription.id)?.status).toBe("canceled");
    const mail = await server.smtp.waitFor(
      owner.email,
      (received) => received.subject === "Your ClientDesk account has been deleted",
    );
    expect(mail.text).toContain("Your account has been deleted");
    expect(mail.text).toContain("cancelled at once");

    // Stripe's event about the cancellation finds no account and changes nothing.
    const canceled = { ...standIn.subscriptions.get(subscription.id), status: "canceled" };
    const event = stripeEvent("customer.subscription.deleted", canceled, server.clock.now());
    expect((await deliverEvent(server.agent(), event)).status).toBe(200);
    expect(await User.query().findById(owner.id)).toBeUndefined();
  });

  it("deletes the workspace with its owner, not its people's accounts", async () => {
    const owner = await signUpOwner(server, "Olga Owner");
    await setTier(owner.id, "agency");
    const admin = await addStaff(server, owner, "admin", "Adam Admin");
    const member = await addStaff(server, owner, "member", "Mia Member");
    const client = await addJoinedClient(server, owner, { name: "Acme" });
    await owner.agent.put(`/api/clients/${client.id}/assignees`, { userIds: [member.id] });

    const deleted = await deleteAccount(owner, { password: owner.password });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    for (const staff of [admin, member]) {
      // Still signed in, now the owner of a workspace of their own, with nothing of Olga's.
      const me = await staff.agent.get("/api/user");
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: staff.id, role: "owner" });
      expect((await staff.agent.get("/api/clients")).body).toEqual([]);
      const team = await staff.agent.get("/api/team/members");
      expect(team.body).toEqual([expect.objectContaining({ id: staff.id, role: "owner" })]);
    }
    expect((await client.agent.get("/api/user")).status).toBe(401);
  });

  it("keeps everything when the subscription cannot be cancelled", async () => {
    const owner = await signUpOwner(server);
    await User.query()
      .patch({ stripeSubscriptionId: `sub_unknown_${owner.id}`, subscriptionStatus: "active" })
      .where("id", owner.id);
    const answer = await deleteAccount(owner, { password: owner.password });
    expect(answer.status).toBe(502);
    expect(answer.body.message).toMatch(/nothing was deleted/);
    expect((await owner.agent.get("/api/user")).status).toBe(200);
  });

  describe("an account without a password (Google only)", () => {
    async function googleOnlyOwner() {
      const owner = await signUpOwner(server);
      await User.query().patch({ passwordHash: null }).where("id", owner.id);
      return owner;
    }

    it("is confirmed by a sign-in within the last 10 minutes", async () => {
      const owner = await googleOnlyOwner();
      const answer = await deleteAccount(owner, {});
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(await User.query().findById(owner.id)).toBeUndefined();
    });

    it("asks for a fresh sign-in when the last one is older", async () => {
      const owner = await googleOnlyOwner();
      const elevenMinutesAgo = new Date(server.clock.now().getTime() - 11 * 60_000);
      await Session.query().patch({ createdAt: elevenMinutesAgo }).where("userId", owner.id);
      const answer = await deleteAccount(owner, {});
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe(
        "For your security, sign in with Google again, then delete your account within 10 minutes",
      );
      expect(await User.query().findById(owner.id)).toBeDefined();
    });
  });
});
