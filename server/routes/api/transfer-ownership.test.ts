import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient, setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner, uniqueEmail } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { subscribeWithStripe } from "../../../tests/support/stripe-checkout";
import {
  deliverEvent,
  StripeStandIn,
  stripeEnv,
  stripeEvent,
} from "../../../tests/support/stripe-stand-in";
import { addStaff } from "../../../tests/support/team";
import { User } from "../../models";

// Issue 26, part 1: the owner hands the workspace to one of its people, who becomes its owner
// with its clients, team, invites, audit log, plan, billing and branding; the former owner
// stays, as an admin.

const names = async (staff: SignedInOwner) =>
  ((await staff.agent.get("/api/clients")).body as { name: string }[]).map((c) => c.name).sort();
const roles = async (staff: SignedInOwner) =>
  Object.fromEntries(
    ((await staff.agent.get("/api/team/members")).body as { fullName: string; role: string }[]).map(
      (member) => [member.fullName, member.role],
    ),
  );

describe("handing the workspace over", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  async function agency() {
    const olga = await signUpOwner(server, "Olga Owner");
    await setTier(olga.id, "agency");
    // A fourth seat, for the pending invite (the plan's count moves with the workspace).
    await User.query(server.db).patch({ extraSeats: 1 }).where("id", olga.id);
    await olga.agent.patch("/api/user/profile", {
      fullName: "Olga Owner",
      companyName: "Studio Olga",
    });
    const alex = await addStaff(server, olga, "admin", "Alex Admin");
    const sam = await addStaff(server, olga, "member", "Sam Staff");
    const acme = await addJoinedClient(server, olga, { name: "Acme" });
    const beta = await addJoinedClient(server, olga, { name: "Beta" });
    await olga.agent.put(`/api/clients/${acme.id}/assignees`, { userIds: [sam.id] });
    const invited = uniqueEmail("later");
    expect(
      (await olga.agent.post("/api/team/members", { email: invited, role: "member" })).status,
    ).toBe(201);
    return { olga, alex, sam, acme, beta, invited };
  }

  it("moves the clients, team, invites, log, plan and branding to the new owner", async () => {
    const { olga, alex, sam, acme, invited } = await agency();
    const handed = await olga.agent.post("/api/team/owner", {
      userId: alex.id,
      password: olga.password,
    });
    expect(handed.status, JSON.stringify(handed.body)).toBe(200);
    expect(handed.body).toMatchObject({ id: alex.id, fullName: "Alex Admin", role: "owner" });

    for (const staff of [olga, alex])
      expect(await roles(staff)).toEqual({
        "Alex Admin": "owner",
        "Olga Owner": "admin",
        "Sam Staff": "member",
      });
    // Everyone keeps what they had: the owner and the admin every client, Sam his.
    expect(await names(alex)).toEqual(["Acme", "Beta"]);
    expect(await names(olga)).toEqual(["Acme", "Beta"]);
    expect(await names(sam)).toEqual(["Acme"]);
    expect((await alex.agent.get(`/api/clients/${acme.id}/assignees`)).body).toEqual({
      assigneeIds: [sam.id],
      leadUserId: sam.id,
    });
    // The plan and the branding went with it; the client still sees the studio.
    const [alexRow, olgaRow] = await Promise.all([
      User.query(server.db).findById(alex.id).throwIfNotFound(),
      User.query(server.db).findById(olga.id).throwIfNotFound(),
    ]);
    expect(alexRow).toMatchObject({ accountTier: "agency", companyName: "Studio Olga" });
    expect(olgaRow).toMatchObject({ accountTier: "free", companyName: null, teamRole: "admin" });
    const portal = await acme.agent.get(`/api/portal/${acme.id}`);
    expect(portal.body.client.owner).toMatchObject({
      companyName: "Studio Olga",
      accountTier: "agency",
    });
    // The pending invite and the log are the workspace's, now Alex's to see.
    const invites = (await alex.agent.get("/api/team/invites")).body as { email: string }[];
    expect(invites.map((invite) => invite.email)).toEqual([invited]);
    const audit = await alex.agent.get("/api/team/audit");
    const actions = (audit.body.entries as { action: string }[]).map((entry) => entry.action);
    expect(actions[0]).toBe("workspace.transferred");
    expect(actions).toContain("client.added");
    // Billing is the new owner's alone.
    const seatsByOlga = await olga.agent.put("/api/subscription/seats", { extra: 1 });
    expect(seatsByOlga.status).toBe(403);
    expect(seatsByOlga.body).toEqual({ message: "Only the workspace's owner manages billing" });
    // Olga cannot hand it over again; Alex can hand it back.
    const again = await olga.agent.post("/api/team/owner", {
      userId: sam.id,
      password: olga.password,
    });
    expect(again.status).toBe(403);
    expect(again.body).toEqual({ message: "Only the workspace's owner can hand it over" });
    const back = await alex.agent.post("/api/team/owner", {
      userId: olga.id,
      password: alex.password,
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(await roles(olga)).toMatchObject({ "Olga Owner": "owner", "Alex Admin": "admin" });
    expect(await names(sam)).toEqual(["Acme"]);
  });

  it("refuses without the password, to anyone outside the team and from anyone but the owner", async () => {
    const { olga, alex, sam } = await agency();
    const stranger = await signUpOwner(server, "Stranger");
    const wrong = await olga.agent.post("/api/team/owner", { userId: alex.id, password: "nope" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ message: "Password is incorrect" });
    const outsider = await olga.agent.post("/api/team/owner", {
      userId: stranger.id,
      password: olga.password,
    });
    expect(outsider.status).toBe(404);
    expect(outsider.body).toEqual({ message: "Team member not found" });
    const self = await olga.agent.post("/api/team/owner", {
      userId: olga.id,
      password: olga.password,
    });
    expect(self.status).toBe(403);
    expect(self.body).toEqual({ message: "You already own this workspace" });
    for (const staff of [alex, sam]) {
      const taken = await staff.agent.post("/api/team/owner", {
        userId: staff.id,
        password: staff.password,
      });
      expect(taken.status).toBe(403);
    }
    expect(await roles(olga)).toEqual({
      "Olga Owner": "owner",
      "Alex Admin": "admin",
      "Sam Staff": "member",
    });
  });
});

describe("handing over a workspace billed by Stripe", () => {
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

  it("moves the subscription: the new owner buys seats on it, and Stripe's events reach them", async () => {
    const olga = await signUpOwner(server, "Olga Owner");
    const subscription = await subscribeWithStripe(server, standIn, olga, {
      tier: "agency",
      period: "monthly",
      unitAmount: 3000,
      periodEnd: new Date(server.clock.now().getTime() + 30 * 86_400_000),
    });
    const alex = await addStaff(server, olga, "admin", "Alex Admin");
    const handed = await olga.agent.post("/api/team/owner", {
      userId: alex.id,
      password: olga.password,
    });
    expect(handed.status, JSON.stringify(handed.body)).toBe(200);
    const alexRow = await User.query(server.db).findById(alex.id).throwIfNotFound();
    expect(alexRow).toMatchObject({
      accountTier: "agency",
      stripeSubscriptionId: subscription.id,
    });

    // A seat bought by Alex goes on the same subscription.
    const bought = await alex.agent.put("/api/subscription/seats", { extra: 1 });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    expect(standIn.requestsTo("POST", `/v1/subscriptions/${subscription.id}`).length).toBe(1);

    // Stripe's cancellation finds Alex's account by its customer, not Olga's.
    const canceled = { ...standIn.subscriptions.get(subscription.id), status: "canceled" };
    const event = stripeEvent("customer.subscription.deleted", canceled, server.clock.now());
    expect((await deliverEvent(server.agent(), event)).status).toBe(200);
    const [after, olgaAfter] = await Promise.all([
      User.query(server.db).findById(alex.id).throwIfNotFound(),
      User.query(server.db).findById(olga.id).throwIfNotFound(),
    ]);
    expect(after.subscriptionStatus).toBe("canceled");
    expect(olgaAfter).toMatchObject({ accountTier: "free", stripeSubscriptionId: null });
  });
});
