import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpOwner } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { User } from "../../models";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const setTier = (id: string, accountTier: "free" | "pro" | "agency") =>
  User.query().patch({ accountTier }).where("id", id);

describe("profile", () => {
  it("updates name and company, and the change survives a new session", async () => {
    const owner = await signUpOwner(server);
    const response = await owner.agent.patch("/api/user/profile", {
      fullName: "Olivia Ortega",
      companyName: "Ortega Studio",
    });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({
      fullName: "Olivia Ortega",
      companyName: "Ortega Studio",
    });
    const fresh = server.agent();
    await fresh.post("/api/login", { username: owner.email, password: owner.password });
    expect((await fresh.get("/api/user")).body).toMatchObject({
      fullName: "Olivia Ortega",
      companyName: "Ortega Studio",
    });
  });

  it("cannot change the email, role or tier", async () => {
    const owner = await signUpOwner(server);
    for (const extra of [
      { email: "new@example.test" },
      { role: "client" },
      { accountTier: "agency" },
    ]) {
      const response = await owner.agent.patch("/api/user/profile", { fullName: "X", ...extra });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/Unknown field/);
    }
    const me = (await owner.agent.get("/api/user")).body;
    expect(me).toMatchObject({
      email: owner.email,
      role: "owner",
      accountTier: "free",
      fullName: "Olivia Owner",
    });
  });

  it("refuses a blank name", async () => {
    const owner = await signUpOwner(server);
    const response = await owner.agent.patch("/api/user/profile", { fullName: "   " });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe("Full name is required");
  });
});

describe("password change", () => {
  it("needs the current password", async () => {
    const owner = await signUpOwner(server);
    const response = await owner.agent.patch("/api/user/password", {
      currentPassword: "wrong-one",
      newPassword: "another-pw",
    });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe("Current password is incorrect");
    expect(
      (await server.agent().post("/api/login", { username: owner.email, password: owner.password }))
        .status,
    ).toBe(200);
  });

  it("ends other sessions, keeps this one, and the new password signs in", async () => {
    const owner = await signUpOwner(server);
    const elsewhere = server.agent();
    await elsewhere.post("/api/login", { username: owner.email, password: owner.password });
    expect((await elsewhere.get("/api/user")).status).toBe(200);

    const response = await owner.agent.patch("/api/user/password", {
      currentPassword: owner.password,
      newPassword: "another-pw",
    });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe("Password updated successfully");
    expect((await elsewhere.get("/api/user")).status).toBe(401);
    expect((await owner.agent.get("/api/user")).status).toBe(200);
    expect(
      (await server.agent().post("/api/login", { username: owner.email, password: "another-pw" }))
        .status,
    ).toBe(200);
  });
});

describe("notification settings", () => {
  it("accepts 1 to 60 minutes", async () => {
    const owner = await signUpOwner(server);
    expect((await owner.agent.get("/api/user")).body.emailNotificationDelay).toBe(5);
    const response = await owner.agent.patch("/api/user/notification-settings", {
      emailNotificationDelay: 30,
    });
    expect(response.status).toBe(200);
    expect((await owner.agent.get("/api/user")).body.emailNotificationDelay).toBe(30);
  });

  for (const bad of [0, 61, 5.5, "10", null]) {
    it(`refuses ${JSON.stringify(bad)}`, async () => {
      const owner = await signUpOwner(server);
      const response = await owner.agent.patch("/api/user/notification-settings", {
        emailNotificationDelay: bad,
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toBeTruthy();
      expect((await owner.agent.get("/api/user")).body.emailNotificationDelay).toBe(5);
    });
  }
});

describe("colour scheme", () => {
  const scheme = { primaryColor: "#112233", backgroundColor: "#FAFAFA", textColor: "#101010" };

  it("is for agency owners only", async () => {
    const owner = await signUpOwner(server);
    const refused = await owner.agent.patch("/api/user/color-scheme", scheme);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/Agency/);
    await setTier(owner.id, "agency");
    const accepted = await owner.agent.patch("/api/user/color-scheme", scheme);
    expect(accepted.status).toBe(200);
    expect((await owner.agent.get("/api/user")).body).toMatchObject({
      primaryColor: "#112233",
      backgroundColor: "#fafafa",
      textColor: "#101010",
    });
  });

  it("refuses what is not a colour", async () => {
    const owner = await signUpOwner(server);
    await setTier(owner.id, "agency");
    const response = await owner.agent.patch("/api/user/color-scheme", {
      ...scheme,
      textColor: "red;background:url(x)",
    });
    expect(response.status).toBe(400);
    expect((await owner.agent.get("/api/user")).body.textColor).toBe("#000000");
  });
});

describe("account tier", () => {
  it("reports tier, count and limits", async () => {
    const owner = await signUpOwner(server);
    const free = await owner.agent.get("/api/user/account-tier");
    expect(free.body).toEqual({
      currentTier: "free",
      clientCount: 0,
      canCreateMore: true,
      tierConfig: { name: "Free", clientLimit: 1, logoSupport: false, colorCustomization: false },
      storage: { usedBytes: 0, quotaBytes: 1024 ** 3 },
    });
    await setTier(owner.id, "agency");
    const agency = await owner.agent.get("/api/user/account-tier");
    expect(agency.body.tierConfig).toEqual({
      name: "Agency",
      clientLimit: null,
      logoSupport: true,
      colorCustomization: true,
    });
  });
});

describe("authorization", () => {
  const routes: [string, string, unknown][] = [
    ["GET", "/api/user", undefined],
    ["PATCH", "/api/user/profile", { fullName: "Mallory" }],
    ["PATCH", "/api/user/password", { currentPassword: "x", newPassword: "mallory-pw" }],
    ["PATCH", "/api/user/notification-settings", { emailNotificationDelay: 9 }],
    [
      "PATCH",
      "/api/user/color-scheme",
      { primaryColor: "#000000", backgroundColor: "#000000", textColor: "#000000" },
    ],
    ["GET", "/api/user/account-tier", undefined],
  ];

  it("answers every account route 401 to anonymous callers", async () => {
    for (const [method, path, json] of routes) {
      const response = await server.agent().request(method, path, { json });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body.message, `${method} ${path}`).toBe("Not signed in");
    }
  });

  it("lets another owner change only their own account", async () => {
    const alice = await signUpOwner(server, "Alice");
    const bob = await signUpOwner(server, "Bob");
    await setTier(bob.id, "agency");
    for (const [method, path, json] of routes) {
      await bob.agent.request(method, path, { json });
    }
    const aliceNow = (await alice.agent.get("/api/user")).body;
    expect(aliceNow).toMatchObject({
      fullName: "Alice",
      emailNotificationDelay: 5,
      primaryColor: "#0093ff",
    });
    expect(
      (await server.agent().post("/api/login", { username: alice.email, password: alice.password }))
        .status,
    ).toBe(200);
    const bobNow = (await bob.agent.get("/api/user")).body;
    expect(bobNow).toMatchObject({ fullName: "Mallory", emailNotificationDelay: 9 });
  });
});
