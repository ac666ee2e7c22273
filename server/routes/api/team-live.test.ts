import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AgentFromIp,
  addJoinedClient,
  freshIp,
  setTier,
} from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner, uniqueEmail } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { addStaff } from "../../../tests/support/team";
import { subscribeInTestMode } from "../../../tests/support/test-mode-checkout";
import { TestSocket } from "../../../tests/support/ws-client";

// Issue 26: the team's own changes (invites, joins, roles, removals, seats) reach the open pages
// of the workspace's staff as `team_changed`, and nobody else's.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: "true" } });
});
afterAll(() => server?.close());

/** Sign-ups from addresses of their own: this file makes more people than one IP may. */
const people = () => ({
  agent: () => new AgentFromIp(server.url, freshIp()),
  smtp: server.smtp,
});

const teamChanges = (socket: TestSocket) =>
  socket.events.filter((event) => event.type === "team_changed").length;

/** Waits until `socket` has heard `count` team changes in all. */
const heard = (socket: TestSocket, count: number) =>
  socket.waitFor(() => teamChanges(socket) >= count);

async function invite(inviter: SignedInOwner, email: string, role = "member") {
  const answer = await inviter.agent.post("/api/team/members", { email, role });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; inviteToken: string };
}

describe("team_changed", () => {
  it("tells the owner's and the admins' open pages of every change to the team, and no one else", async () => {
    const owner = await signUpOwner(people(), "Olga Owner");
    const ownerSocket = await TestSocket.open(server.url, { cookie: owner.agent.cookieHeader });
    // A new plan decides the seats: the owner's page hears it as a team change too.
    await subscribeInTestMode(server, owner, "agency");
    await heard(ownerSocket, 1);
    const admin = await addStaff(people(), owner, "admin", "Adam Admin");
    const client = await addJoinedClient(server, owner, { name: "Acme" });
    const stranger = await signUpOwner(people(), "Stan Stranger");
    await setTier(stranger.id, "agency");

    const others = await Promise.all(
      [admin, client, stranger].map((person) =>
        TestSocket.open(server.url, { cookie: person.agent.cookieHeader }),
      ),
    );
    const sockets = [ownerSocket, ...others];
    const [adminSocket, clientSocket, strangerSocket] = others as [
      TestSocket,
      TestSocket,
      TestSocket,
    ];
    try {
      // The admin invites: both hear it, the admin's own page included (another tab of theirs).
      const newcomer = await signUpOwner(people(), "Nia Newcomer");
      const { inviteToken } = await invite(admin, newcomer.email);
      await Promise.all([heard(ownerSocket, 2), heard(adminSocket, 1)]);
      // Its type alone: the page asks the API for the rest.
      expect(adminSocket.events.find((event) => event.type === "team_changed")).toEqual({
        type: "team_changed",
      });

      // The owner buys a seat (the workspace's three are taken: owner, admin, invite).
      expect((await owner.agent.put("/api/subscription/seats", { extra: 1 })).status).toBe(200);
      await Promise.all([heard(ownerSocket, 3), heard(adminSocket, 2)]);

      // An invite made and withdrawn.
      const withdrawn = await invite(owner, uniqueEmail("maybe"));
      await Promise.all([heard(ownerSocket, 4), heard(adminSocket, 3)]);
      expect((await admin.agent.delete(`/api/team/invites/${withdrawn.id}`)).status).toBe(200);
      await Promise.all([heard(ownerSocket, 5), heard(adminSocket, 4)]);

      // The newcomer joins, and from then on hears of the team too.
      expect((await newcomer.agent.post(`/api/team/invites/${inviteToken}`)).status).toBe(200);
      await Promise.all([heard(ownerSocket, 6), heard(adminSocket, 5)]);
      const newcomerSocket = await TestSocket.open(server.url, {
        cookie: newcomer.agent.cookieHeader,
      });

      // The owner makes the newcomer an admin: their own page hears it.
      const promoted = await owner.agent.patch(`/api/team/members/${newcomer.id}`, {
        role: "admin",
      });
      expect(promoted.status).toBe(200);
      await Promise.all([heard(ownerSocket, 7), heard(adminSocket, 6), heard(newcomerSocket, 1)]);

      // The newcomer is removed: the others hear it; their own socket closes with the session.
      expect((await admin.agent.delete(`/api/team/members/${newcomer.id}`)).status).toBe(200);
      await Promise.all([heard(ownerSocket, 8), heard(adminSocket, 7)]);
      expect((await newcomerSocket.waitForClose()).code).toBe(4401);
      expect(teamChanges(newcomerSocket)).toBe(1);

      // Every change reached the owner, so each was delivered (or not) to every socket by now.
      // The client and the other workspace hear something of their own after it: had a team
      // change been sent to them, it would have come first.
      const sent = await owner.agent.post(`/api/clients/${client.id}/messages`, {
        content: "Marker",
      });
      await clientSocket.waitFor((event) => event.messageId === sent.body.id);
      expect(teamChanges(clientSocket)).toBe(0);
      await invite(stranger, uniqueEmail("theirs"));
      await heard(strangerSocket, 1);
      expect(teamChanges(strangerSocket)).toBe(1);
      expect(teamChanges(ownerSocket)).toBe(8);
    } finally {
      for (const socket of sockets) socket.close();
    }
  });
});
