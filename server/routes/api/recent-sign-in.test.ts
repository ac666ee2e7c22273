import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../../tests/support/clock";
import { addJoinedClient } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { TestSocket } from "../../../tests/support/ws-client";
import { User } from "../../models";

// Issue 23: one rule (server/policies/recent-sign-in.ts) for setting or changing a password,
// signing out everywhere and deleting the account: the current password where there is one,
// else a sign-in within the last 10 minutes. A stolen old session can do none of them.

let server: TestServer;
let clock: TestClock;
beforeAll(async () => {
  server = await startTestServer();
  clock = server.clock as TestClock;
});
afterAll(() => server?.close());

/** An owner who signs in with Google only: no password (as Google sign-in makes them). */
async function googleOnlyOwner(): Promise<SignedInOwner> {
  const owner = await signUpOwner(server);
  await User.query(server.db).patch({ passwordHash: null }).where("id", owner.id);
  return owner;
}

const signIn = (email: string, password: string) =>
  server.agent().post("/api/login", { username: email, password });

describe("a Google-only account setting its first password", () => {
  it("is refused from a session older than 10 minutes, and nothing changes", async () => {
    const owner = await googleOnlyOwner();
    clock.advanceMinutes(11);
    const answer = await owner.agent.patch("/api/user/password", { newPassword: "taken over!" });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      message:
        "For your security, sign in with Google again, then set your password within 10 minutes",
    });
    expect((await signIn(owner.email, "taken over!")).status).toBe(401);
    expect((await owner.agent.get("/api/user")).body.hasPassword).toBe(false);
  });

  it("is allowed within 10 minutes of the sign-in", async () => {
    const owner = await googleOnlyOwner();
    clock.advanceMinutes(9);
    const answer = await owner.agent.patch("/api/user/password", {
      newPassword: "my first password",
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await signIn(owner.email, "my first password")).status).toBe(200);
    expect((await owner.agent.get("/api/user")).body.hasPassword).toBe(true);
  });
});

describe("an account with a password", () => {
  it("changes it only with the current one, however recent the sign-in", async () => {
    const owner = await signUpOwner(server);
    const answer = await owner.agent.patch("/api/user/password", { newPassword: "no proof given" });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: "Current password is incorrect" });
    expect((await signIn(owner.email, owner.password)).status).toBe(200);
  });
});

describe("signing out everywhere", () => {
  it("ends every other session and closes their sockets, keeping this browser", async () => {
    const owner = await signUpOwner(server);
    const laptop = server.agent();
    expect(
      (await laptop.post("/api/login", { username: owner.email, password: owner.password })).status,
    ).toBe(200);
    const laptopSocket = await TestSocket.open(server.url, { cookie: laptop.cookieHeader });
    const here = await TestSocket.open(server.url, { cookie: owner.agent.cookieHeader });
    try {
      const wrong = await owner.agent.post("/api/user/sign-out-everywhere", { password: "not it" });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toEqual({ message: "Password is incorrect" });
      expect((await laptop.get("/api/user")).status).toBe(200);

      const answer = await owner.agent.post("/api/user/sign-out-everywhere", {
        password: owner.password,
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        success: true,
        message: "Signed out everywhere else",
        endedSessions: 1,
      });
      expect((await laptopSocket.waitForClose(2_000)).code).toBe(4401);
      await expect.poll(async () => (await laptop.get("/api/user")).status).toBe(401);
      expect((await owner.agent.get("/api/user")).status).toBe(200);
      // This browser's socket stays: a client's message still reaches it.
      const client = await addJoinedClient(server, owner);
      await client.agent.post(`/api/clients/${client.id}/messages`, { content: "Still live here" });
      expect((await here.waitFor((event) => event.type === "new_message")).clientId).toBe(
        client.id,
      );
    } finally {
      laptopSocket.close();
      here.close();
    }
  });

  it("from a Google-only account needs a sign-in within 10 minutes", async () => {
    const owner = await googleOnlyOwner();
    clock.advanceMinutes(11);
    const old = await owner.agent.post("/api/user/sign-out-everywhere", {});
    expect(old.status).toBe(403);
    expect(old.body.message).toBe(
      "For your security, sign in with Google again, then sign out everywhere within 10 minutes",
    );
  });

  it("is not for clients", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    const answer = await client.agent.post("/api/user/sign-out-everywhere", {});
    expect(answer.status).toBe(403);
  });
});
