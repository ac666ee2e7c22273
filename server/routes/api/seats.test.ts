import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner, uniqueEmail } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { addTeamMember } from "../../../tests/support/team";
import { simulateRenewal, subscribeInTestMode } from "../../../tests/support/test-mode-checkout";

// Issue 26, seats: an Agency workspace buys seats on top of its 3, in test mode (no Stripe
// keys) through the same state code as Stripe's events.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const seats = async (agent: SignedInOwner["agent"]) => {
  const answer = await agent.get("/api/subscription/seats");
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
};
const invite = (owner: { agent: SignedInOwner["agent"] }) =>
  owner.agent.post("/api/team/members", { email: uniqueEmail("invitee"), role: "member" });

async function agencyOwner(period: "monthly" | "annual" = "monthly") {
  const owner = await signUpOwner(server, "Olga Owner");
  await subscribeInTestMode(server, owner, "agency", period);
  return owner;
}

/** An Agency workspace whose 3 seats are taken: the owner, one member and one pending invite. */
async function fullWorkspace() {
  const owner = await agencyOwner();
  const admin = await addTeamMember(server, owner, { teamRole: "admin", fullName: "Ada Admin" });
  expect((await invite(owner)).status).toBe(201);
  return { owner, admin };
}

const auditEntries = async (owner: SignedInOwner) =>
  (await owner.agent.get("/api/team/audit")).body.entries as {
    actorName: string;
    action: string;
    details: Record<string, unknown>;
  }[];

describe("GET /api/subscription/seats", () => {
  it("counts the people, the pending invites and the seats an Agency workspace has", async () => {
    const { owner, admin } = await fullWorkspace();
    const expected = {
      included: 3,
      extra: 0,
      used: 2,
      pending: 1,
      total: 3,
      pricePerSeat: { month: 8, year: 80 },
      billingPeriod: "monthly",
      canBuy: true,
    };
    expect(await seats(owner.agent)).toEqual(expected);
    // Staff read the same (the Team tab shows "3 of 3 seats used" to them too).
    expect(await seats(admin.agent)).toEqual(expected);
  });

  it("gives Free and Pro one seat that cannot be added to", async () => {
    const free = await signUpOwner(server);
    expect(await seats(free.agent)).toMatchObject({
      included: 1,
      extra: 0,
      used: 1,
      total: 1,
      canBuy: false,
    });
    const pro = await signUpOwner(server);
    await subscribeInTestMode(server, pro, "pro");
    expect(await seats(pro.agent)).toMatchObject({ included: 1, total: 1, canBuy: false });
  });
});

describe("PUT /api/subscription/seats in test mode", () => {
  it("buys a seat at once, and the invite that was refused then goes through", async () => {
    const { owner } = await fullWorkspace();
    const refused = await invite(owner);
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({
      message: "All 3 seats are taken: add a seat to invite someone else",
    });

    const bought = await owner.agent.put("/api/subscription/seats", { extra: 1 });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    expect(bought.body.message).toBe(
      "You now have 4 seats. The added seat is prorated on your next invoice.",
    );
    expect(bought.body.seats).toMatchObject({ included: 3, extra: 1, total: 4, used: 2 });

    expect((await invite(owner)).status).toBe(201);
    const fifth = await invite(owner);
    expect(fifth.status).toBe(402);
    expect(fifth.body.message).toBe("All 4 seats are taken: add a seat to invite someone else");

    const entries = await auditEntries(owner);
    expect(entries.filter((entry) => entry.action === "seats.changed")).toHaveLength(1);
    expect(entries.find((entry) => entry.action === "seats.changed")).toMatchObject({
      actorName: "Olga Owner",
      action: "seats.changed",
      details: { seats: 1, previousSeats: 0 },
    });
  });

  it("gives back free seats only, without a refund, and keeps them through a renewal", async () => {
    const owner = await agencyOwner();
    expect((await owner.agent.put("/api/subscription/seats", { extra: 2 })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await invite(owner)).status).toBe(201);
    // 5 seats: the owner and 4 invites.

    const tooFew = await owner.agent.put("/api/subscription/seats", { extra: 1 });
    expect(tooFew.status).toBe(409);
    expect(tooFew.body).toEqual({
      message:
        "5 seats are in use (people and pending invites): remove someone or withdraw an invite before going down to 4 seats",
    });
    expect(await seats(owner.agent)).toMatchObject({ extra: 2, total: 5 });

    const invites = (await owner.agent.get("/api/team/invites")).body as { id: string }[];
    expect((await owner.agent.delete(`/api/team/invites/${invites[0]!.id}`)).status).toBe(200);
    const lowered = await owner.agent.put("/api/subscription/seats", { extra: 1 });
    expect(lowered.status, JSON.stringify(lowered.body)).toBe(200);
    expect(lowered.body.message).toBe(
      "You now have 4 seats. Seats given back are not refunded: your next bill is lower.",
    );

    // Setting what is already there changes nothing and records nothing.
    const entries = (await auditEntries(owner)).length;
    expect((await owner.agent.put("/api/subscription/seats", { extra: 1 })).status).toBe(200);
    expect(await auditEntries(owner)).toHaveLength(entries);

    expect((await simulateRenewal(owner, "succeed")).status).toBe(303);
    expect(await seats(owner.agent)).toMatchObject({ extra: 1, total: 4 });
  });

  it("is the owner's alone: an admin and a member get 403", async () => {
    const owner = await agencyOwner();
    const admin = await addTeamMember(server, owner, { teamRole: "admin" });
    const member = await addTeamMember(server, owner, { teamRole: "member" });
    for (const person of [admin, member]) {
      const answer = await person.agent.put("/api/subscription/seats", { extra: 1 });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ message: "Only the workspace's owner manages billing" });
    }
    expect(await seats(owner.agent)).toMatchObject({ extra: 0 });
  });

  it("is for Agency: Free and Pro get 402, and bad numbers 400", async () => {
    const free = await signUpOwner(server);
    const pro = await signUpOwner(server);
    await subscribeInTestMode(server, pro, "pro");
    for (const owner of [free, pro]) {
      const answer = await owner.agent.put("/api/subscription/seats", { extra: 1 });
      expect(answer.status).toBe(402);
      expect(answer.body).toEqual({
        message: "Extra seats are part of the Agency plan: upgrade to add seats",
      });
    }
    // Agency without a subscription (set by hand, as a grant): nothing to add seats to.
    const granted = await signUpOwner(server);
    await setTier(granted.id, "agency");
    expect((await granted.agent.put("/api/subscription/seats", { extra: 1 })).body).toEqual({
      message: "You have no paid subscription to add seats to",
    });

    const agency = await agencyOwner();
    for (const [body, message] of [
      [{ extra: -1 }, "extra cannot be negative"],
      [{ extra: 1.5 }, "extra must be a whole number of seats"],
      [{ extra: "2" }, "extra must be a whole number of seats"],
      [{ extra: 101 }, "At most 100 extra seats: write to us for more"],
    ] as const) {
      const answer = await agency.agent.put("/api/subscription/seats", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toContain(message);
    }
  });

  it("keeps the seats on annual billing, and drops them with a downgrade to Pro", async () => {
    const owner = await agencyOwner();
    await owner.agent.put("/api/subscription/seats", { extra: 2 });
    const annual = await owner.agent.post("/api/subscription/change-plan", {
      tier: "agency",
      period: "annual",
    });
    expect(annual.status).toBe(200);
    expect(await seats(owner.agent)).toMatchObject({ extra: 2, billingPeriod: "annual" });

    const member = await addTeamMember(server, owner, { fullName: "Mia Member" });
    const pro = await owner.agent.post("/api/subscription/change-plan", {
      tier: "pro",
      period: "annual",
    });
    expect(pro.status).toBe(200);
    expect(await seats(owner.agent)).toMatchObject({ included: 1, extra: 0, used: 2, total: 1 });
    // The member keeps their place and their sign-in; nobody new can be invited.
    expect((await member.agent.get("/api/team/members")).status).toBe(200);
    expect((await invite(owner)).body).toEqual({
      message: "Team members are part of the Agency plan",
    });
    const entries = await auditEntries(owner);
    expect(entries.find((entry) => entry.action === "seats.changed")).toMatchObject({
      actorName: "Billing",
      details: { seats: 0, previousSeats: 2 },
    });
  });
});
