import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient } from "../../tests/support/conversations";
import { signUpOwner, uniqueEmail } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { StripeStandIn, stripeEnv } from "../../tests/support/stripe-stand-in";

const BILLING_OFF = "Billing is off on this server: every account has every feature";

/** Pays a test-mode checkout the way the checkout page's form does. */
async function payTestCheckout(
  owner: Awaited<ReturnType<typeof signUpOwner>>,
  tier: "pro" | "agency",
) {
  const checkout = await owner.agent.post("/api/subscription/create-checkout", {
    tier,
    period: "monthly",
  });
  expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
  const session = new URL(checkout.body.url).searchParams.get("session")!;
  return owner.agent.request("POST", "/billing/test-checkout", {
    body: new URLSearchParams({ session, outcome: "pay" }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
}

describe("BILLING_MODE=off (self-hosted)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { NODE_ENV: "production", BILLING_MODE: "off" } });
  });
  afterAll(() => server?.close());

  it("says so to the web app, before anyone signs in", async () => {
    const answer = await server.agent().get("/api/billing-mode");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ mode: "off" });
  });

  it("gives a new owner every feature: many clients, short links, colours, logo", async () => {
    const owner = await signUpOwner(server);
    const me = await owner.agent.get("/api/user");
    expect(me.body.accountTier).toBe("agency");
    const tier = await owner.agent.get("/api/user/account-tier");
    expect(tier.body).toMatchObject({
      canCreateMore: true,
      tierConfig: { clientLimit: null, logoSupport: true },
    });

    // Beyond the free tier's one client, each with a short link made at once.
    const added = [];
    for (const name of ["First", "Second", "Third"]) {
      const answer = await owner.agent.post("/api/clients", { name, email: uniqueEmail("client") });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body.shortInviteUrl).toMatch(/\/client\?code=/);
      added.push(answer.body);
    }
    const short = await owner.agent.post(`/api/clients/${added[0].id}/short-link`);
    expect(short.status).toBe(200);

    const colours = await owner.agent.patch("/api/user/color-scheme", {
      primaryColor: "#aa3300",
      backgroundColor: "#fffaf0",
      textColor: "#111111",
    });
    expect(colours.status, JSON.stringify(colours.body)).toBe(200);
    expect(colours.body.user.accountTier).toBe("agency");

    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: "#aa3300" },
    })
      .png()
      .toBuffer();
    const body = new FormData();
    body.append("companyLogo", new Blob([new Uint8Array(png)], { type: "image/png" }), "logo.png");
    const logo = await owner.agent.request("POST", "/api/user/company-logo", { body });
    expect(logo.status, JSON.stringify(logo.body)).toBe(200);

    // The client's portal and mail carry the branding.
    const client = await addJoinedClient(server, owner, { name: "Carla" });
    const seen = await client.agent.get(`/api/clients/${client.id}`);
    expect(seen.body.owner).toMatchObject({ accountTier: "agency", primaryColor: "#aa3300" });
    const invited = uniqueEmail("invited");
    await owner.agent.post("/api/clients", { name: "Ines", email: invited, sendInviteEmail: true });
    const mail = await server.smtp.waitFor(invited);
    expect(mail.html).toContain("#aa3300");
    expect(mail.parsed.attachments.map((attachment) => attachment.cid)).toContain(
      "owner-logo@clientdesk",
    );
  });

  it("has no plans to read, buy or change", async () => {
    const owner = await signUpOwner(server);
    for (const [method, path] of [
      ["GET", "/api/subscription/status"],
      ["POST", "/api/subscription/create-checkout"],
      ["POST", "/api/subscription/complete-cancellation"],
    ] as const) {
      const answer = await owner.agent.request(method, path, {
        json: method === "POST" ? { tier: "pro", period: "monthly" } : undefined,
      });
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ message: BILLING_OFF });
    }
    expect((await owner.agent.get("/billing/test-mode")).status).toBe(404);
    const posted = await owner.agent.request("POST", "/billing/test-checkout", {
      body: "session=x&outcome=pay",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(posted.status).toBe(404);
    expect((await server.agent().post("/api/stripe/webhook", {})).status).toBe(404);
  });
});

describe("BILLING_MODE=test named in production", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { NODE_ENV: "production", BILLING_MODE: "test" } });
  });
  afterAll(() => server?.close());

  it("keeps the simulated checkout and says test mode everywhere", async () => {
    expect((await server.agent().get("/api/billing-mode")).body).toEqual({ mode: "test" });
    const owner = await signUpOwner(server);
    expect((await owner.agent.get("/api/subscription/status")).body.testMode).toBe(true);
    expect((await payTestCheckout(owner, "pro")).status).toBe(303);
    expect((await owner.agent.get("/api/user")).body.accountTier).toBe("pro");
  });

  it("keeps the free tier's limits for unpaid owners", async () => {
    const owner = await signUpOwner(server);
    expect(
      (await owner.agent.post("/api/clients", { name: "One", email: uniqueEmail("c") })).status,
    ).toBe(201);
    const second = await owner.agent.post("/api/clients", { name: "Two", email: uniqueEmail("c") });
    expect(second.status).toBe(403);
  });
});

describe("BILLING_MODE=stripe", () => {
  let server: TestServer;
  let standIn: StripeStandIn;
  beforeAll(async () => {
    standIn = new StripeStandIn();
    await standIn.start();
    server = await startTestServer({ env: { ...stripeEnv(standIn), BILLING_MODE: "stripe" } });
  });
  afterAll(async () => {
    await server?.close();
    await standIn?.stop();
  });

  it("has no simulated checkout: an owner cannot upgrade for free", async () => {
    expect((await server.agent().get("/api/billing-mode")).body).toEqual({ mode: "stripe" });
    const owner = await signUpOwner(server);
    expect((await owner.agent.get("/api/subscription/status")).body.testMode).toBe(false);
    const checkout = await owner.agent.post("/api/subscription/create-checkout", {
      tier: "agency",
      period: "monthly",
    });
    expect(checkout.status).toBe(200);
    expect(checkout.body.url).not.toContain("/billing/test-checkout");
    const forged = await owner.agent.request("POST", "/billing/test-checkout", {
      body: "session=x&outcome=pay",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(forged.status).toBe(404);
    expect((await owner.agent.get("/api/user")).body.accountTier).toBe("free");
  });
});
