import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../../tests/support/clock";
import {
  AgentFromIp,
  addClient,
  addJoinedClient,
  freshIp,
  setTier,
} from "../../../tests/support/conversations";
import { usingPostgres } from "../../../tests/support/database";
import { signUpOwner, uniqueEmail } from "../../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import type { ReceivedMail } from "../../../tests/support/smtp";
import { TestSocket } from "../../../tests/support/ws-client";
import { Client, Session, User } from "../../models";

const INVALID_INVITE = "This invite link is invalid or has already been used.";
/** A used or replaced link: the portal offers a sign-in link, and learns nothing else. */
const USED_INVITE = {
  success: false,
  reason: "used",
  message:
    "This invite link was already used. To open your conversation again, ask for a sign-in link by email.",
};
const INVALID_SIGN_IN_LINK = "This sign-in link is invalid or has expired.";

let server: TestServer;
beforeAll(async () => {
  // Rate-limit tests call from their own addresses through X-Forwarded-For.
  server = await startTestServer({ env: { TRUST_PROXY: "true" } });
});
afterAll(() => server?.close());

const fromNewIp = () => new AgentFromIp(server.url, freshIp());

const tokenFrom = (mail: ReceivedMail) => {
  const match = mail.text.match(/\/client\/sign-in\?token=([A-Za-z0-9_-]+)/);
  if (!match?.[1]) throw new Error(`no sign-in link in "${mail.text}"`);
  return match[1];
};

/** Signs `agent` in as the joined client with the address, by a mailed sign-in link. */
async function signInByMailedLink(agent: TestAgent, email: string): Promise<void> {
  const earlier = new Set(server.smtp.mailsTo(email));
  await fromNewIp().post("/api/client-sign-in-link", { email });
  const mail = await server.smtp.waitFor(email, (m) => !earlier.has(m));
  expect((await agent.post("/api/client-sign-in", { token: tokenFrom(mail) })).status).toBe(200);
}

describe("accepting an invite", () => {
  it("creates the client user, marks the client joined and signs the browser in", async () => {
    const owner = await signUpOwner(server);
    const added = await addClient(owner, { name: "Carla Client" });
    const browser = server.agent();
    const accepted = await browser.post(`/api/invite/${added.inviteToken}`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({
      success: true,
      clientId: added.id,
      message: "Invite accepted",
    });

    const me = await browser.get("/api/user");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: added.email,
      fullName: "Carla Client",
      role: "client",
      clientId: added.id,
      emailVerified: true,
      hasPassword: false,
    });
    const listed = (await owner.agent.get(`/api/clients/${added.id}`)).body;
    expect(listed.joinedAt).toEqual(expect.any(String));
    expect(listed.inviteToken).toBeNull();
    const stored = await Client.query().findById(added.id);
    expect(stored).toMatchObject({
      userId: me.body.id,
      inviteTokenHash: null,
      inviteTokenEncrypted: null,
    });
  });

  it("is single-use: a second use answers 410 'used', naming neither the client nor the address", async () => {
    const owner = await signUpOwner(server);
    const added = await addClient(owner);
    expect((await server.agent().post(`/api/invite/${added.inviteToken}`)).status).toBe(200);
    const again = await server.agent().post(`/api/invite/${added.inviteToken}`);
    expect(again.status).toBe(410);
    expect(again.body).toEqual(USED_INVITE);
    expect(JSON.stringify(again.body)).not.toContain(added.email);
    expect(JSON.stringify(again.body)).not.toContain(added.id);
    expect((await server.agent().post(`/api/invite/${added.inviteToken}`)).status).toBe(410);
  });

  it("forgets a used link once its client is deleted: then it is just invalid", async () => {
    const owner = await signUpOwner(server);
    const added = await addClient(owner);
    expect((await server.agent().post(`/api/invite/${added.inviteToken}`)).status).toBe(200);
    expect((await owner.agent.delete(`/api/clients/${added.id}`)).status).toBe(200);
    const gone = await server.agent().post(`/api/invite/${added.inviteToken}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ success: false, message: INVALID_INVITE });
  });

  it("lets exactly one of several accepts at the same moment through", async () => {
    const owner = await signUpOwner(server);
    const added = await addClient(owner);
    const browsers = [1, 2, 3, 4, 5].map(() => server.agent());
    const answers = await Promise.all(
      browsers.map((b) => b.post(`/api/invite/${added.inviteToken}`)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 410, 410, 410, 410]);
    const signedIn = await Promise.all(browsers.map((b) => b.get("/api/user")));
    expect(signedIn.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await User.query().where({ email: added.email, role: "client" }).resultSize()).toBe(1);
  });

  it("answers unknown and malformed tokens with the spec's notice", async () => {
    for (const token of [
      "AAAAAAAAAAAAAAAAAAAAAA",
      "short",
      "x".repeat(300),
      "not a token",
      "%00",
    ]) {
      const response = await server.agent().post(`/api/invite/${encodeURIComponent(token)}`);
      expect(response.status, token).toBe(404);
      expect(response.body).toEqual({ success: false, message: INVALID_INVITE });
    }
  });

  it("never swaps a signed-in owner: 409 names who is signed in, and the session and the link stay", async () => {
    const alice = await signUpOwner(server, "Alice Able");
    const bob = await signUpOwner(server, "Bob Baker");
    const added = await addClient(alice, { name: "Carla Client" });
    const bobSessions = await Session.query().where("userId", bob.id).resultSize();
    const bobSocket = await TestSocket.open(server.url, { cookie: bob.agent.cookieHeader });
    try {
      const refused = await bob.agent.post(`/api/invite/${added.inviteToken}`);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        reason: "signed_in",
        message: `You are signed in as Bob Baker (${bob.email}). This invite link is for another account: sign out to open it.`,
      });
      // Nothing of the invite: not its client, nor its owner.
      for (const secret of [added.email, added.name, added.id, alice.email, "Alice Able"]) {
        expect(JSON.stringify(refused.body)).not.toContain(secret);
      }
      expect((await bob.agent.get("/api/user")).body).toMatchObject({ id: bob.id, role: "owner" });
      expect(await Session.query().where("userId", bob.id).resultSize()).toBe(bobSessions);
      expect((await bob.agent.get("/api/clients")).status).toBe(200);
      expect((await Client.query().findById(added.id))?.joinedAt).toBeNull();

      // "Sign out and open this invite": the link is still live.
      expect((await bob.agent.post("/api/logout")).status).toBe(200);
      expect((await bobSocket.waitForClose(2_000)).code).toBe(4401);
      const accepted = await bob.agent.post(`/api/invite/${added.inviteToken}`);
      expect(accepted.status).toBe(200);
      expect((await bob.agent.get("/api/user")).body).toMatchObject({
        role: "client",
        clientId: added.id,
      });
    } finally {
      bobSocket.close();
    }
  });

  it("never swaps a signed-in client of another conversation, even one with the same address", async () => {
    const alice = await signUpOwner(server, "Alice Able");
    const bob = await signUpOwner(server, "Bob Baker");
    const email = uniqueEmail("shared");
    const ofAlice = await addJoinedClient(server, alice, { name: "Carla of Alice", email });
    const ofBob = await addClient(bob, { name: "Carla of Bob", email });
    const refused = await ofAlice.agent.post(`/api/invite/${ofBob.inviteToken}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      reason: "signed_in",
      message: `You are signed in as Carla of Alice (${email}). This invite link is for another account: sign out to open it.`,
    });
    expect(JSON.stringify(refused.body)).not.toContain("Bob");
    expect((await ofAlice.agent.get("/api/user")).body).toMatchObject({
      id: ofAlice.userId,
      clientId: ofAlice.id,
    });
    // The link stays live for whoever opens it signed out.
    expect((await server.agent().post(`/api/invite/${ofBob.inviteToken}`)).status).toBe(200);
  });

  it("keeps the session of the invite's own client, who opens their new link while signed in", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    const { inviteToken } = (await owner.agent.post(`/api/clients/${client.id}/invite`)).body;
    // The re-issue signed the client out; a mailed sign-in link lets them back in.
    await signInByMailedLink(client.agent, client.email);
    const cookie = client.agent.cookieHeader;

    const accepted = await client.agent.post(`/api/invite/${inviteToken}`);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({
      success: true,
      clientId: client.id,
      message: "Invite accepted",
    });
    expect(client.agent.cookieHeader).toBe(cookie);
    expect((await client.agent.get("/api/user")).body).toMatchObject({ id: client.userId });
    // The link is used up all the same.
    expect((await server.agent().post(`/api/invite/${inviteToken}`)).status).toBe(410);
  });

  it("is refused to the owner of that client, and the link stays live", async () => {
    const owner = await signUpOwner(server);
    const added = await addClient(owner);
    const own = await owner.agent.post(`/api/invite/${added.inviteToken}`);
    expect(own.status).toBe(409);
    expect(own.body.message).toMatch(/your own client's invite link/);
    expect((await owner.agent.get("/api/user")).body.role).toBe("owner");
    expect((await server.agent().post(`/api/invite/${added.inviteToken}`)).status).toBe(200);
  });

  it("is rate-limited per address", async () => {
    const caller = fromNewIp();
    for (let i = 0; i < 60; i += 1) {
      expect((await caller.post("/api/invite/AAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
    }
    const limited = await caller.post("/api/invite/AAAAAAAAAAAAAAAAAAAAAA");
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/Too many attempts/);
    expect((await fromNewIp().post("/api/invite/AAAAAAAAAAAAAAAAAAAAAA")).status).toBe(404);
  });
});

describe("re-issuing an invite", () => {
  it("kills the old link and the new one works", async () => {
    const owner = await signUpOwner(server);
    const added = await addClient(owner);
    const reissued = await owner.agent.post(`/api/clients/${added.id}/invite`);
    expect(reissued.status).toBe(200);
    const { inviteToken } = reissued.body;
    expect(reissued.body).toEqual({
      inviteUrl: `${server.url}/invite/${inviteToken}`,
      inviteToken,
    });
    expect(inviteToken).not.toBe(added.inviteToken);
    expect((await owner.agent.get("/api/clients")).body[0].inviteToken).toBe(inviteToken);

    const old = await server.agent().post(`/api/invite/${added.inviteToken}`);
    expect(old.status).toBe(410);
    expect(old.body).toEqual(USED_INVITE);
    expect((await server.agent().post(`/api/invite/${inviteToken}`)).status).toBe(200);
  });

  it("signs the joined client out everywhere and closes their sockets, and only theirs", async () => {
    const owner = await signUpOwner(server);
    await setTier(owner.id, "pro");
    const client = await addJoinedClient(server, owner);
    // A second device, signed in by a mailed link.
    const phone = server.agent();
    await signInByMailedLink(phone, client.email);
    const other = await addJoinedClient(server, owner);
    const sockets = await Promise.all(
      [client.agent, phone, owner.agent, other.agent].map((agent) =>
        TestSocket.open(server.url, { cookie: agent.cookieHeader }),
      ),
    );
    const [laptopSocket, phoneSocket, ownerSocket, otherSocket] = sockets;
    try {
      const reissued = await owner.agent.post(`/api/clients/${client.id}/invite`);
      expect(reissued.status).toBe(200);
      // At once, through the SessionEnded event.
      expect((await laptopSocket!.waitForClose(2_000)).code).toBe(4401);
      expect((await phoneSocket!.waitForClose(2_000)).code).toBe(4401);
      expect((await client.agent.get("/api/user")).status).toBe(401);
      expect((await phone.get("/api/user")).status).toBe(401);
      expect(await Session.query().where("userId", client.userId).resultSize()).toBe(0);

      // The owner and another client stay connected: a message still reaches both.
      const sent = await owner.agent.post(`/api/clients/${other.id}/messages`, {
        content: "still here",
      });
      expect(sent.status).toBe(201);
      await ownerSocket!.waitFor((e) => e.messageId === sent.body.id);
      await otherSocket!.waitFor((e) => e.messageId === sent.body.id);
      expect((await other.agent.get("/api/user")).status).toBe(200);

      // The new link lets the client back in.
      const { inviteToken } = reissued.body;
      expect((await client.agent.post(`/api/invite/${inviteToken}`)).status).toBe(200);
      expect((await client.agent.get("/api/user")).body).toMatchObject({ id: client.userId });
    } finally {
      for (const socket of sockets) socket.close();
    }
  });

  it("lets a joined client back in as the same user, keeping when they joined", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    await client.agent.post("/api/logout");
    const joinedAt = (await owner.agent.get(`/api/clients/${client.id}`)).body.joinedAt;

    const { inviteToken } = (await owner.agent.post(`/api/clients/${client.id}/invite`)).body;
    const phone = server.agent();
    expect((await phone.post(`/api/invite/${inviteToken}`)).status).toBe(200);
    expect((await phone.get("/api/user")).body).toMatchObject({
      id: client.userId,
      clientId: client.id,
    });
    expect((await owner.agent.get(`/api/clients/${client.id}`)).body.joinedAt).toBe(joinedAt);
    expect(await User.query().where({ email: client.email, role: "client" }).resultSize()).toBe(1);
  });
});

// PGlite lives in one process, so there is no second instance to reach: PostgreSQL only
// (TEST_DATABASE_URL), as in server/realtime/socket-server.test.ts.
describe.skipIf(!usingPostgres)("re-issuing an invite with two instances (PostgreSQL only)", () => {
  let second: TestServer;
  beforeAll(async () => {
    second = await startTestServer({ db: server.db });
  });
  afterAll(() => second?.close());

  it("closes the client's sockets on the other instance too", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    const onSecond = await TestSocket.open(second.url, { cookie: client.agent.cookieHeader });
    try {
      expect((await owner.agent.post(`/api/clients/${client.id}/invite`)).status).toBe(200);
      expect((await onSecond.waitForClose(2_000)).code).toBe(4401);
    } finally {
      onSecond.close();
    }
  });
});

describe("the owner's live view of a join", () => {
  it("hears client_joined once, on the first join only", async () => {
    const owner = await signUpOwner(server);
    const added = await addClient(owner, { name: "Jo Joiner" });
    const socket = await TestSocket.open(server.url, { cookie: owner.agent.cookieHeader });
    try {
      const browser = server.agent();
      expect((await browser.post(`/api/invite/${added.inviteToken}`)).status).toBe(200);
      const event = await socket.waitFor((e) => e.type === "client_joined");
      expect(event).toEqual({ type: "client_joined", clientId: added.id });

      // A re-issued link used on another device is not a new join.
      const { inviteToken } = (await owner.agent.post(`/api/clients/${added.id}/invite`)).body;
      expect((await server.agent().post(`/api/invite/${inviteToken}`)).status).toBe(200);
      // A message sent afterwards: events arrive in order, so a second join would be in by then.
      const sent = await owner.agent.post(`/api/clients/${added.id}/messages`, { content: "hi" });
      expect(sent.status).toBe(201);
      await socket.waitFor((e) => e.messageId === sent.body.id);
      expect(socket.events.filter((e) => e.type === "client_joined")).toHaveLength(1);
    } finally {
      socket.close();
    }
  });
});

describe("short links", () => {
  it("are for the paid plans", async () => {
    const owner = await signUpOwner(server);
    const added = await addClient(owner);
    const refused = await owner.agent.post(`/api/clients/${added.id}/short-link`);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message: "Short invite links are part of the Pro and Agency plans",
    });
  });

  it("resolve to the live token, follow a re-issue, and die when the invite is used", async () => {
    const owner = await signUpOwner(server);
    await setTier(owner.id, "pro");
    const added = await addClient(owner);
    const made = await owner.agent.post(`/api/clients/${added.id}/short-link`);
    expect(made.status).toBe(200);
    expect(made.body).toEqual({
      shortUrl: added.response.body.shortInviteUrl,
      inviteToken: added.inviteToken,
    });
    const code = new URL(made.body.shortUrl).searchParams.get("code");
    expect(code).toMatch(/^[A-HJ-NP-Za-km-np-z2-9]{8}$/);
    expect((await owner.agent.post(`/api/clients/${added.id}/short-link`)).body.shortUrl).toBe(
      made.body.shortUrl,
    );

    const anonymous = fromNewIp();
    const resolved = await anonymous.get(`/api/short-link/${code}`);
    expect(resolved.status).toBe(200);
    expect(resolved.body).toEqual({ inviteToken: added.inviteToken });

    const { inviteToken } = (await owner.agent.post(`/api/clients/${added.id}/invite`)).body;
    expect((await anonymous.get(`/api/short-link/${code}`)).body).toEqual({ inviteToken });
    expect((await owner.agent.post(`/api/clients/${added.id}/short-link`)).body.inviteToken).toBe(
      inviteToken,
    );

    expect((await anonymous.post(`/api/invite/${inviteToken}`)).status).toBe(200);
    const gone = await server.agent().get(`/api/short-link/${code}`);
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual(USED_INVITE);
    expect(JSON.stringify(gone.body)).not.toContain(added.email);
    const joined = await owner.agent.post(`/api/clients/${added.id}/short-link`);
    expect(joined.status).toBe(409);
    expect(joined.body.message).toMatch(/already joined/);
  });

  it("answer unknown and malformed codes with the spec's notice", async () => {
    for (const code of ["ZZZZZZZZ", "abc", "0000000O", "x".repeat(100)]) {
      const response = await fromNewIp().get(`/api/short-link/${code}`);
      expect(response.status, code).toBe(404);
      expect(response.body).toEqual({ message: INVALID_INVITE });
    }
  });

  it("are rate-limited per address", async () => {
    const caller = fromNewIp();
    for (let i = 0; i < 60; i += 1)
      expect((await caller.get("/api/short-link/ZZZZZZZZ")).status).toBe(404);
    const limited = await caller.get("/api/short-link/ZZZZZZZZ");
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/Too many attempts/);
    expect((await fromNewIp().get("/api/short-link/ZZZZZZZZ")).status).toBe(404);
  });
});

describe("sign-in links for joined clients", () => {
  const ASKED = {
    success: true,
    message: "If that address belongs to a conversation, a sign-in link is on its way.",
  };

  it("mails a link that signs the client in once", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner);
    await client.agent.post("/api/logout");

    const asked = await fromNewIp().post("/api/client-sign-in-link", {
      email: client.email.toUpperCase(),
    });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual(ASKED);
    const mail = await server.smtp.waitFor(client.email);
    expect(mail.subject).toBe("Sign in to your conversation with Olivia Owner");
    expect(mail.text).toContain(`${server.url}/client/sign-in?token=`);
    const token = tokenFrom(mail);
    expect(mail.html).toContain(token);

    const phone = server.agent();
    const signedIn = await phone.post("/api/client-sign-in", { token });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({ success: true, clientId: client.id, message: "Signed in" });
    expect((await phone.get("/api/user")).body).toMatchObject({
      id: client.userId,
      role: "client",
      clientId: client.id,
    });

    const again = await server.agent().post("/api/client-sign-in", { token });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: INVALID_SIGN_IN_LINK });
  });

  it("lets one of two uses of a link at the same moment through", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    await fromNewIp().post("/api/client-sign-in-link", { email: client.email });
    const token = tokenFrom(await server.smtp.waitFor(client.email));
    const answers = await Promise.all([
      server.agent().post("/api/client-sign-in", { token }),
      server.agent().post("/api/client-sign-in", { token }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
  });

  it("expires after 15 minutes", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    await fromNewIp().post("/api/client-sign-in-link", { email: client.email });
    const token = tokenFrom(await server.smtp.waitFor(client.email));
    (server.clock as TestClock).advanceMinutes(16);
    const late = await server.agent().post("/api/client-sign-in", { token });
    expect(late.status).toBe(400);
    expect(late.body.message).toBe(INVALID_SIGN_IN_LINK);
  });

  it("works within 15 minutes, and a newer link replaces an older one", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    await fromNewIp().post("/api/client-sign-in-link", { email: client.email });
    const first = tokenFrom(await server.smtp.waitFor(client.email));
    await fromNewIp().post("/api/client-sign-in-link", { email: client.email });
    const second = tokenFrom(
      await server.smtp.waitFor(client.email, (mail) => !mail.text.includes(first)),
    );
    (server.clock as TestClock).advanceMinutes(14);
    expect((await server.agent().post("/api/client-sign-in", { token: first })).status).toBe(400);
    expect((await server.agent().post("/api/client-sign-in", { token: second })).status).toBe(200);
  });

  it("answers alike for unknown and pending addresses, and mails them nothing", async () => {
    const owner = await signUpOwner(server);
    const pending = await addClient(owner);
    const unknown = uniqueEmail("nobody");
    for (const email of [unknown, pending.email, owner.email]) {
      const asked = await fromNewIp().post("/api/client-sign-in-link", { email });
      expect(asked.status).toBe(200);
      expect(asked.body).toEqual(ASKED);
    }
    // The links would be mailed by the work queued after the answers: once that is done, none was.
    await server.services.events.idle();
    await server.services.afterAnswer.idle();
    expect(server.smtp.mailsTo(unknown)).toHaveLength(0);
    expect(server.smtp.mailsTo(pending.email)).toHaveLength(0);
    expect(
      server.smtp.mailsTo(owner.email).filter((m) => m.subject.includes("Sign in")),
    ).toHaveLength(0);
  });

  it("sends one link per conversation when an address is the client of two owners", async () => {
    const alice = await signUpOwner(server, "Alice Able");
    const bob = await signUpOwner(server, "Bob Baker");
    const email = uniqueEmail("shared");
    const ofAlice = await addJoinedClient(server, alice, { email });
    const ofBob = await addJoinedClient(server, bob, { email });
    expect(ofAlice.userId).not.toBe(ofBob.userId);
    await fromNewIp().post("/api/client-sign-in-link", { email });
    const mailFromBob = await server.smtp.waitFor(email, (mail) =>
      mail.subject.includes("Bob Baker"),
    );
    await server.smtp.waitFor(email, (mail) => mail.subject.includes("Alice Able"));
    const browser = server.agent();
    const signedIn = await browser.post("/api/client-sign-in", { token: tokenFrom(mailFromBob) });
    expect(signedIn.body.clientId).toBe(ofBob.id);
    expect((await browser.get(`/api/clients/${ofAlice.id}`)).status).toBe(404);
  });

  it("refuses malformed tokens and is rate-limited per address", async () => {
    for (const body of [
      {},
      { token: "" },
      { token: "short" },
      { token: 5 },
      { token: "y".repeat(201) },
    ]) {
      expect((await server.agent().post("/api/client-sign-in", body)).status).toBe(400);
    }
    expect(
      (await server.agent().post("/api/client-sign-in", { token: "z".repeat(43) })).body,
    ).toEqual({
      message: INVALID_SIGN_IN_LINK,
    });
    const email = uniqueEmail("spammed");
    for (let i = 0; i < 5; i += 1) {
      expect((await fromNewIp().post("/api/client-sign-in-link", { email })).status).toBe(200);
    }
    expect((await fromNewIp().post("/api/client-sign-in-link", { email })).status).toBe(429);
    const caller = fromNewIp();
    for (let i = 0; i < 30; i += 1) {
      expect((await caller.post("/api/client-sign-in-link", { email: uniqueEmail() })).status).toBe(
        200,
      );
    }
    expect((await caller.post("/api/client-sign-in-link", { email: uniqueEmail() })).status).toBe(
      429,
    );
  });
});
