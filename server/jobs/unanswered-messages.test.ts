import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addClient,
  addJoinedClient,
  type JoinedClient,
  setTier,
} from "../../tests/support/conversations";
import {
  type SignedInOwner,
  signUpOwner,
  startConversation,
  uniqueEmail,
} from "../../tests/support/factories";
import { testDatabase } from "../../tests/support/database";
import type { TestClock } from "../../tests/support/clock";
import { type TestAgent, type TestServer, startTestServer } from "../../tests/support/server";
import type { ReceivedMail } from "../../tests/support/smtp";
import { addTeamMember, type TeamMember } from "../../tests/support/team";
import { RETRY_DELAYS_MS } from "../mail/outbox";
import { NotificationState } from "../models";

const JOB = "unanswered-messages";

let server: TestServer;
let clock: TestClock;
beforeAll(async () => {
  // The sweep takes every due row of its database: this file gets a database of its own.
  server = await startTestServer({ db: await testDatabase({ isolated: true }) });
  clock = server.clock as TestClock;
});
afterAll(async () => {
  await server?.close();
  await server?.db.destroy();
});

interface Conversation {
  owner: SignedInOwner;
  client: JoinedClient;
}

const conversation = (ownerName = "Olivia Owner"): Promise<Conversation> =>
  startConversation(server, { ownerName });

async function send(agent: TestAgent, clientId: string, content: string): Promise<string> {
  const response = await agent.post(`/api/clients/${clientId}/messages`, { content });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id;
}

async function markRead(agent: TestAgent, clientId: string, messageId: string) {
  const response = await agent.post(`/api/clients/${clientId}/read`, { messageId });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

/** Moves the clock and runs one sweep and one pass of the mail outbox, as the server's timers would. */
async function sweepAfter(minutes: number) {
  clock.advanceMinutes(minutes);
  await server.jobs.runOnce(JOB);
  await server.jobs.runOnce("mail-outbox");
}

const notificationsTo = (address: string): ReceivedMail[] =>
  server.smtp.mailsTo(address).filter((mail) => /new messages? from/i.test(mail.subject));

describe("the recipient's delay", () => {
  it("emails the client once their own delay has passed, not before", async () => {
    const { owner, client } = await conversation();
    const delay = await client.agent.patch(`/api/clients/${client.id}/notification-settings`, {
      emailNotificationDelay: 10,
    });
    expect(delay.status).toBe(200);
    await send(owner.agent, client.id, "Here is the first draft of the logo.");

    await sweepAfter(9);
    expect(notificationsTo(client.email)).toHaveLength(0);

    await sweepAfter(1);
    const mails = notificationsTo(client.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails as [ReceivedMail];
    expect(mail.subject).toBe("New message from Olivia Owner");
    expect(mail.text).toContain("Here is the first draft of the logo.");
    expect(mail.text).toContain(`Open the conversation: ${server.url}/client/${client.id}`);
    expect(mail.html).toContain(`href="${server.url}/client/${client.id}"`);
    expect(mail.text).toContain("waited 10 minutes without being read or answered");
    expect(mail.text).toContain("the Settings tab of your conversation");
    expect(mail.text).toContain(`${server.url}/client/${client.id}?tab=settings`);
    expect(notificationsTo(owner.email)).toHaveLength(0);
  });

  it("emails the owner once the owner's delay has passed, not before", async () => {
    const { owner, client } = await conversation();
    const delay = await owner.agent.patch("/api/user/notification-settings", {
      emailNotificationDelay: 3,
    });
    expect(delay.status).toBe(200);
    await send(client.agent, client.id, "Can we move the call to Friday?");

    await sweepAfter(2);
    expect(notificationsTo(owner.email)).toHaveLength(0);

    await sweepAfter(1);
    const [mail, ...more] = notificationsTo(owner.email);
    expect(more).toHaveLength(0);
    expect(mail?.subject).toBe("New message from Carla Client");
    expect(mail?.text).toContain("Can we move the call to Friday?");
    expect(mail?.text).toContain(`Open the conversation: ${server.url}/?client=${client.id}`);
    expect(mail?.text).toContain("waited 3 minutes");
    expect(mail?.text).toContain("Account Settings, Notifications tab");
    expect(mail?.text).toContain(`${server.url}/?settings=notifications`);
    expect(notificationsTo(client.email)).toHaveLength(0);
  });

  it("uses the default of 5 minutes", async () => {
    const { owner, client } = await conversation();
    await send(owner.agent, client.id, "Hello");
    await sweepAfter(4);
    expect(notificationsTo(client.email)).toHaveLength(0);
    await sweepAfter(1);
    expect(notificationsTo(client.email)).toHaveLength(1);
  });
});

describe("one email per conversation", () => {
  it("covers several waiting messages in one email, sent once", async () => {
    const { owner, client } = await conversation();
    await send(owner.agent, client.id, "First: the invoice is attached.");
    clock.advanceMinutes(2);
    await send(owner.agent, client.id, "Second: please check the dates.");
    await send(owner.agent, client.id, "Third: thanks!");

    await sweepAfter(3);
    await server.jobs.runOnce(JOB);
    await sweepAfter(30);

    const mails = notificationsTo(client.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe("3 new messages from Olivia Owner");
    for (const text of ["First: the invoice", "Second: please check", "Third: thanks!"]) {
      expect(mails[0]?.text).toContain(text);
    }
  });

  it("sends nothing more until the recipient comes back, then mails the new messages only", async () => {
    const { owner, client } = await conversation();
    await send(owner.agent, client.id, "Message one");
    await sweepAfter(5);
    expect(notificationsTo(client.email)).toHaveLength(1);

    // Still away: another message does not bring another email.
    const second = await send(owner.agent, client.id, "Message two");
    await sweepAfter(60);
    expect(notificationsTo(client.email)).toHaveLength(1);

    // Back, reads everything; the next message is emailed on its own.
    await markRead(client.agent, client.id, second);
    await send(owner.agent, client.id, "Message three");
    await sweepAfter(5);
    const mails = notificationsTo(client.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]?.subject).toBe("New message from Olivia Owner");
    expect(mails[1]?.text).toContain("Message three");
    expect(mails[1]?.text).not.toContain("Message one");
    expect(mails[1]?.text).not.toContain("Message two");
  });

  it("mentions a file message by its name", async () => {
    const { owner, client } = await conversation();
    const form = new FormData();
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
    form.append("file", new Blob([pdf], { type: "application/pdf" }), "contract.pdf");
    const upload = await owner.agent.request("POST", `/api/clients/${client.id}/upload`, {
      body: form,
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    await sweepAfter(5);
    expect(notificationsTo(client.email)[0]?.text).toContain("Sent a file: contract.pdf");
  });
});

describe("answering or reading first", () => {
  it("a reply before the delay cancels the email (and the other side's clock starts)", async () => {
    const { owner, client } = await conversation();
    await send(owner.agent, client.id, "Are you free tomorrow?");
    await sweepAfter(2);
    await send(client.agent, client.id, "Yes, after 10.");

    await sweepAfter(10);
    expect(notificationsTo(client.email)).toHaveLength(0);
    // The reply itself waited for the owner past their delay.
    expect(notificationsTo(owner.email).map((mail) => mail.subject)).toEqual([
      "New message from Carla Client",
    ]);
  });

  it("a read before the delay cancels the email", async () => {
    const { owner, client } = await conversation();
    const id = await send(owner.agent, client.id, "FYI: the site is live.");
    await sweepAfter(3);
    await markRead(client.agent, client.id, id);
    await sweepAfter(30);
    expect(notificationsTo(client.email)).toHaveLength(0);
  });

  it("a read that leaves newer messages unread restarts the wait for them", async () => {
    const { owner, client } = await conversation();
    const first = await send(owner.agent, client.id, "Early message");
    await sweepAfter(3);
    await send(owner.agent, client.id, "Later message");
    await markRead(client.agent, client.id, first);

    await sweepAfter(4);
    expect(notificationsTo(client.email)).toHaveLength(0);
    await sweepAfter(1);
    const mails = notificationsTo(client.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain("Later message");
    expect(mails[0]?.text).not.toContain("Early message");
  });

  it("a client who has not joined yet gets no email (the invite is their way in)", async () => {
    const owner = await signUpOwner(server);
    const pending = await addClient(owner);
    await send(owner.agent, pending.id, "Welcome aboard");
    await sweepAfter(10);
    expect(notificationsTo(pending.email)).toHaveLength(0);
  });
});

describe("content", () => {
  it("puts HTML from a message into the email as text", async () => {
    const { owner, client } = await conversation();
    const hostile = `<img src=x onerror="alert(1)"> <a href="https://evil.test">click</a> & <b>bold</b>`;
    await send(owner.agent, client.id, hostile);
    await sweepAfter(5);
    const [mail] = notificationsTo(client.email);
    expect(mail?.text).toContain(hostile);
    expect(mail?.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(mail?.html).toContain(
      "&lt;a href=&quot;https://evil.test&quot;&gt;click&lt;/a&gt; &amp; &lt;b&gt;bold&lt;/b&gt;",
    );
    expect(mail?.html).not.toContain("<img src=x");
    expect(mail?.html).not.toContain('href="https://evil.test"');
  });

  it("shows an agency owner's logo and colours to their client, in every client email", async () => {
    const owner = await signUpOwner(server, "Ada Agency");
    await setTier(owner.id, "agency");
    const profile = await owner.agent.patch("/api/user/profile", {
      fullName: "Ada Agency",
      companyName: "Studio <Nord>",
    });
    expect(profile.status, JSON.stringify(profile.body)).toBe(200);
    const colours = await owner.agent.patch("/api/user/color-scheme", {
      primaryColor: "#ff5500",
      backgroundColor: "#fdf6e3",
      textColor: "#102030",
    });
    expect(colours.status).toBe(200);
    const logo = await sharp({
      create: { width: 120, height: 40, channels: 4, background: "#ff5500" },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("companyLogo", new Blob([logo], { type: "image/png" }), "logo.png");
    const uploaded = await owner.agent.request("POST", "/api/user/company-logo", { body: form });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);

    // The invite, by email.
    const invited = await addClient(owner, {
      email: uniqueEmail("agency-client"),
      sendInviteEmail: true,
    });
    expect(invited.response.body.inviteEmailSent).toBe(true);
    const invite = await server.smtp.waitFor(invited.email);
    expectBranded(invite);
    expect(invite.text).toContain(`${server.url}/invite/${invited.inviteToken}`);

    // The unanswered-messages email.
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    await send(owner.agent, client.id, "Your brand guide is ready.");
    await sweepAfter(5);
    const [mail] = notificationsTo(client.email);
    expect(mail).toBeDefined();
    expectBranded(mail as ReceivedMail);
    expect(mail?.subject).toBe("New message from Ada Agency (Studio <Nord>)");

    // The owner's own email keeps the product's look.
    await send(client.agent, client.id, "Thanks!");
    await sweepAfter(5);
    const [ownerMail] = notificationsTo(owner.email);
    expect(ownerMail?.html).not.toContain("#ff5500");
    expect(ownerMail?.parsed.attachments).toHaveLength(0);
  });
});

function expectBranded(mail: ReceivedMail) {
  // The agency's #ff5500, darkened to #d14600 where white text sits on it (4.5:1).
  expect(mail.html).toContain("background:#d14600");
  expect(mail.html).toContain("background:#fdf6e3");
  expect(mail.html).toContain("color:#102030");
  const logo = mail.parsed.attachments.find((attachment) => attachment.contentType === "image/png");
  expect(logo?.cid).toBeTruthy();
  // mailparser swaps the cid: reference for the attachment it names.
  expect(mail.html).toContain(`src="data:image/png;base64,${logo?.content.toString("base64")}"`);
  expect(mail.html).toContain('alt="Studio &lt;Nord&gt;"');
  expect(mail.text.startsWith("Studio <Nord>\n")).toBe(true);
}

/**
 * Issue 26: an agency with two members assigned to the client (Alex after 5 minutes, Bea
 * after 30), one member who is not, and the owner.
 */
async function teamConversation() {
  const { owner, client } = await conversation();
  const [alex, bea, uma] = await Promise.all([
    addTeamMember(server, owner, { fullName: "Alex Assigned" }),
    addTeamMember(server, owner, { fullName: "Bea Assigned" }),
    addTeamMember(server, owner, { fullName: "Uma Unassigned" }),
  ]);
  for (const [member, delay] of [
    [alex, 5],
    [bea, 30],
    [uma, 1],
  ] as const) {
    const set = await member.agent.patch("/api/user/notification-settings", {
      emailNotificationDelay: delay,
    });
    expect(set.status).toBe(200);
  }
  const assigned = await owner.agent.put(`/api/clients/${client.id}/assignees`, {
    userIds: [alex.id, bea.id],
  });
  expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
  return { owner, client, alex, bea, uma };
}

const nobodyElseEmailed = (...people: { email: string }[]) => {
  for (const person of people) expect(notificationsTo(person.email)).toHaveLength(0);
};

describe("a team (issue 26)", () => {
  it("emails each assigned member after their own delay, and neither the owner nor an unassigned member", async () => {
    const { owner, client, alex, bea, uma } = await teamConversation();
    await send(client.agent, client.id, "Is the invoice ready?");

    await sweepAfter(4);
    nobodyElseEmailed(alex, bea, uma, owner);
    await sweepAfter(1);
    const [toAlex, ...moreToAlex] = notificationsTo(alex.email);
    expect(moreToAlex).toHaveLength(0);
    expect(toAlex?.subject).toBe("New message from Carla Client");
    expect(toAlex?.text).toContain("Hello Alex Assigned, Carla Client is waiting");
    expect(toAlex?.text).toContain("Is the invoice ready?");
    expect(toAlex?.text).toContain("waited 5 minutes");
    nobodyElseEmailed(bea, uma, owner);

    await sweepAfter(24);
    nobodyElseEmailed(bea);
    await sweepAfter(1);
    const [toBea, ...moreToBea] = notificationsTo(bea.email);
    expect(moreToBea).toHaveLength(0);
    expect(toBea?.text).toContain("Hello Bea Assigned, Carla Client is waiting");
    expect(toBea?.text).toContain("waited 30 minutes");

    await sweepAfter(120);
    expect(notificationsTo(alex.email)).toHaveLength(1);
    expect(notificationsTo(bea.email)).toHaveLength(1);
    nobodyElseEmailed(uma, owner);
  });

  it("stops only the reader's own email when one member reads", async () => {
    const { owner, client, alex, bea } = await teamConversation();
    const waiting = await send(client.agent, client.id, "Did you get the brief?");
    clock.advanceMinutes(1);
    await markRead(bea.agent, client.id, waiting);

    await sweepAfter(4);
    expect(notificationsTo(alex.email)).toHaveLength(1);
    await sweepAfter(60);
    nobodyElseEmailed(bea, owner);
    // The team has read it: the client sees it seen, and nobody's list counts it unread.
    const list = await alex.agent.get("/api/clients");
    expect(list.body.find((c: { id: string }) => c.id === client.id)?.unreadCount).toBe(0);
  });

  it("stops every member's email when one of them answers, and mails only what came after the answer", async () => {
    const { owner, client, alex, bea } = await teamConversation();
    await send(client.agent, client.id, "Can we talk tomorrow?");
    clock.advanceMinutes(1);
    await send(alex.agent, client.id, "Yes, 10 am works.");

    await sweepAfter(60);
    nobodyElseEmailed(alex, bea, owner);

    await send(client.agent, client.id, "Great, see you then.");
    await sweepAfter(30);
    const [toBea] = notificationsTo(bea.email);
    expect(toBea?.subject).toBe("New message from Carla Client");
    expect(toBea?.text).toContain("Great, see you then.");
    expect(toBea?.text).not.toContain("Can we talk tomorrow?");
    expect(notificationsTo(alex.email)).toHaveLength(1);
  });

  it("emails the owner when nobody is assigned, and stops once members are", async () => {
    const { owner, client } = await conversation();
    const member: TeamMember = await addTeamMember(server, owner);
    await send(client.agent, client.id, "Hello?");
    await sweepAfter(5);
    expect(notificationsTo(owner.email)).toHaveLength(1);
    nobodyElseEmailed(member);

    await owner.agent.put(`/api/clients/${client.id}/assignees`, { userIds: [member.id] });
    const seen = notificationsTo(owner.email)[0]!;
    await markRead(owner.agent, client.id, await send(client.agent, client.id, "Still there?"));
    await send(client.agent, client.id, "One more thing.");
    await sweepAfter(5);
    expect(notificationsTo(member.email)).toHaveLength(1);
    expect(notificationsTo(owner.email)).toEqual([seen]);
  });
});

describe("delivery failures", () => {
  it("goes to the outbox once; the outbox retries with backoff until a refusing SMTP server takes it", async () => {
    const { owner, client } = await conversation();
    await send(owner.agent, client.id, "Please sign the contract.");
    server.smtp.refuseNext = 2;

    await sweepAfter(5);
    expect(notificationsTo(client.email)).toHaveLength(0);
    // The sweep's part is done: the email is written, the messages count as notified.
    expect(await stateOf(client.id, "client")).toMatchObject({ attempts: 0, dueAt: null });
    const [queued] = await outboxRowsTo(client.email);
    expect(queued).toMatchObject({ status: "pending", attempts: 1 });
    expect(queued?.lastError).toMatch(/451/);

    // First retry after 30 s: refused again; the next waits a minute.
    clock.advance(RETRY_DELAYS_MS[0]);
    await server.jobs.runOnce("mail-outbox");
    expect(notificationsTo(client.email)).toHaveLength(0);
    expect(server.smtp.refuseNext).toBe(0);
    clock.advance(RETRY_DELAYS_MS[1] - 1_000);
    await server.jobs.runOnce("mail-outbox");
    expect(notificationsTo(client.email)).toHaveLength(0);

    await sweepAfter(1);
    const mails = notificationsTo(client.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain("Please sign the contract.");
    expect(await outboxRowsTo(client.email)).toHaveLength(0);

    await sweepAfter(120);
    expect(notificationsTo(client.email)).toHaveLength(1);
  });
});

/** The outbox's rows for one address (a sent mail's row is gone). */
async function outboxRowsTo(address: string) {
  const rows: {
    status: string;
    attempts: number;
    lastError: string | null;
    message: { to: string };
  }[] = await server.db("outgoing_mails").select("status", "attempts", "lastError", "message");
  return rows.filter((row) => row.message.to === address);
}

async function stateOf(clientId: string, recipientRole: "owner" | "client") {
  // One person per side here: the side's row is theirs.
  const state = await NotificationState.query(server.db).findOne({ clientId, recipientRole });
  if (!state) throw new Error("no notification state");
  return state;
}
