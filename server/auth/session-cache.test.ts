import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpOwner } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { statementsDuring } from "../../tests/support/statements";
import { User } from "../models";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const queriesDuring = async (action: () => Promise<unknown>) =>
  (await statementsDuring(server.db, action)).length;

describe("session cache", () => {
  it("serves repeated requests of one session without reading the database", async () => {
    const owner = await signUpOwner(server);
    await owner.agent.get("/api/user");
    expect(await queriesDuring(() => owner.agent.get("/api/user"))).toBe(0);
  });

  it("forgets a signed-out session at once", async () => {
    const owner = await signUpOwner(server);
    const cookie = owner.agent.cookieHeader;
    await owner.agent.get("/api/user");
    await owner.agent.post("/api/logout");
    expect((await server.agent().get("/api/user", { cookie })).status).toBe(401);
  });

  it("shows a changed user at once, whichever way the row was changed", async () => {
    const owner = await signUpOwner(server);
    await owner.agent.get("/api/user");
    await User.query().patch({ accountTier: "agency" }).where("id", owner.id);
    expect((await owner.agent.get("/api/user")).body.accountTier).toBe("agency");
  });

  it("ends other sessions at once on a password change", async () => {
    const owner = await signUpOwner(server);
    const other = server.agent();
    await other.post("/api/login", { username: owner.email, password: owner.password });
    expect((await other.get("/api/user")).status).toBe(200);
    await owner.agent.patch("/api/user/password", {
      currentPassword: owner.password,
      newPassword: "changed-pw",
    });
    expect((await other.get("/api/user")).status).toBe(401);
  });

  it("keeps serving the session after a message send, which reads users but writes neither table", async () => {
    const owner = await signUpOwner(server);
    const added = await owner.agent.post("/api/clients", {
      name: "Cache Client",
      email: "cache-client@example.test",
    });
    await owner.agent.get("/api/user");
    await owner.agent.post(`/api/clients/${added.body.id}/messages`, { content: "hello" });
    expect(await queriesDuring(() => owner.agent.get("/api/user"))).toBe(0);
  });

  it("shows a user changed by raw SQL inside a CTE at once", async () => {
    const owner = await signUpOwner(server);
    await owner.agent.get("/api/user");
    await server.db.raw(
      `with changed as (update "users" set full_name = 'Renamed Owner' where id = ? returning id) select id from changed`,
      [owner.id],
    );
    expect((await owner.agent.get("/api/user")).body.fullName).toBe("Renamed Owner");
  });
});
