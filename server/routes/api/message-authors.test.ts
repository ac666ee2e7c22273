import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient, type JoinedClient, setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import {
  addTeamMember,
  postAsTeamMember,
  type TeamMember,
  uploadProfilePicture,
} from "../../../tests/support/team";
import { TestSocket } from "../../../tests/support/ws-client";
import type { MessagePayload } from "../../../shared/schemas/message-payload";
import { User } from "../../models";

// Issue 26, "Who wrote it": each message names its author (authorName, authorPicture) to both
// sides, while senderName stays the side's name (to the client, the agency's company name).

let server: TestServer;
let owner: SignedInOwner;
let client: JoinedClient;
let sam: TeamMember;
let ada: TeamMember;
let ownerPicture: string;
let samPicture: string;

beforeAll(async () => {
  server = await startTestServer();
  owner = await signUpOwner(server, "Olivia Owner");
  await setTier(owner.id, "pro");
  const profile = await owner.agent.patch("/api/user/profile", {
    fullName: "Olivia Owner",
    companyName: "Studio Olivia",
  });
  expect(profile.status).toBe(200);
  ownerPicture = await uploadProfilePicture(owner.agent, "#3366ff");
  client = await addJoinedClient(server, owner, { name: "Acme (Carla)" });
  // The client user's own name, not the owner's label for the conversation.
  await User.query().patch({ fullName: "Carla Jones" }).where("id", client.userId);
  sam = await addTeamMember(server, owner, { fullName: "Sam Staff", teamRole: "member" });
  samPicture = await uploadProfilePicture(sam.agent, "#22aa55");
  ada = await addTeamMember(server, owner, { fullName: "Ada Admin", teamRole: "admin" });
});
afterAll(() => server?.close());

type Authors = Pick<
  MessagePayload,
  "content" | "senderRole" | "senderName" | "authorName" | "authorPicture"
>;
const authors = (messages: MessagePayload[]): Authors[] =>
  messages.map(({ content, senderRole, senderName, authorName, authorPicture }) => ({
    content,
    senderRole,
    senderName,
    authorName,
    authorPicture,
  }));

/** The four writers' messages as the owner's side and as the client see them. */
function expected(tag: string) {
  const owner: Authors[] = [
    {
      content: `Olivia ${tag}`,
      senderRole: "owner",
      senderName: "Olivia Owner",
      authorName: "Olivia Owner",
      authorPicture: ownerPicture,
    },
    {
      content: `Sam ${tag}`,
      senderRole: "owner",
      senderName: "Sam Staff",
      authorName: "Sam Staff",
      authorPicture: samPicture,
    },
    {
      content: `Carla ${tag}`,
      senderRole: "client",
      senderName: "Acme (Carla)",
      authorName: "Carla Jones",
      authorPicture: null,
    },
    {
      content: `Ada ${tag}`,
      senderRole: "owner",
      senderName: "Ada Admin",
      authorName: "Ada Admin",
      authorPicture: null,
    },
  ];
  // The client sees the agency as the sender of every message of the owner's side.
  const forClient = owner.map((message) =>
    message.senderRole === "owner" ? { ...message, senderName: "Studio Olivia" } : message,
  );
  return { owner, client: forClient };
}

/** The owner, Sam (member), Carla (the client) and Ada (admin) write in that order. */
async function writeFour(tag: string): Promise<string[]> {
  const path = `/api/clients/${client.id}/messages`;
  const ids: string[] = [];
  const fromOwner = await owner.agent.post(path, { content: `Olivia ${tag}` });
  expect(fromOwner.status).toBe(201);
  ids.push(fromOwner.body.id);
  ids.push((await postAsTeamMember(server, sam, client.id, `Sam ${tag}`)).id);
  const fromClient = await client.agent.post(path, { content: `Carla ${tag}` });
  expect(fromClient.status).toBe(201);
  ids.push(fromClient.body.id);
  ids.push((await postAsTeamMember(server, ada, client.id, `Ada ${tag}`)).id);
  return ids;
}

describe("a message's author", () => {
  it("is in GET /api/clients/{id}/messages, for the owner's side and for the client", async () => {
    await writeFour("in the list");
    const path = `/api/clients/${client.id}/messages`;
    const want = expected("in the list");
    const mine = (list: MessagePayload[]) =>
      authors(list).filter((m) => m.content?.endsWith("in the list"));
    expect(mine((await owner.agent.get(path)).body)).toEqual(want.owner);
    expect(mine((await client.agent.get(path)).body)).toEqual(want.client);
  });

  it("is in the sender's own answer, and in the first screens of the dashboard and the portal", async () => {
    const sent = await owner.agent.post(`/api/clients/${client.id}/messages`, {
      content: "answered",
    });
    expect(sent.body).toMatchObject({
      senderName: "Olivia Owner",
      authorName: "Olivia Owner",
      authorPicture: ownerPicture,
    });
    const fromClient = await client.agent.post(`/api/clients/${client.id}/messages`, {
      content: "answered too",
    });
    expect(fromClient.body).toMatchObject({
      senderName: "Acme (Carla)",
      authorName: "Carla Jones",
      authorPicture: null,
    });

    await writeFour("first screen");
    const want = expected("first screen");
    const mine = (page: { messages: MessagePayload[] }) =>
      authors(page.messages).filter((m) => m.content?.endsWith("first screen"));
    const dashboard = await owner.agent.get(`/api/dashboard?client=${client.id}`);
    expect(dashboard.status).toBe(200);
    expect(mine(dashboard.body.conversation.messages)).toEqual(want.owner);
    const portal = await client.agent.get(`/api/portal/${client.id}`);
    expect(portal.status).toBe(200);
    expect(mine(portal.body.messages)).toEqual(want.client);
  });

  it("is in the new_message event, as each side sees it", async () => {
    const [toOwner, toClient] = await Promise.all(
      [owner.agent, client.agent].map((agent) =>
        TestSocket.open(server.url, { cookie: agent.cookieHeader }),
      ),
    );
    try {
      const ids = await writeFour("live");
      const want = expected("live");
      for (const [socket, side] of [
        [toOwner!, want.owner],
        [toClient!, want.client],
      ] as const) {
        const arrived: MessagePayload[] = [];
        for (const id of ids) {
          const event = await socket.waitFor((e) => e.messageId === id);
          expect(event.message, `the event of ${id} carries the message`).toBeDefined();
          arrived.push(event.message!);
        }
        expect(authors(arrived)).toEqual(side);
      }
    } finally {
      toOwner?.close();
      toClient?.close();
    }
  });

  it("is in search results: by name to the owner's side, under the agency to the client", async () => {
    await writeFour("searchable-author");
    const found = async (agent: SignedInOwner["agent"]) =>
      (await agent.get("/api/search?q=searchable-author")).body.results.map(
        (result: { senderName: string; authorName: string }) => [
          result.senderName,
          result.authorName,
        ],
      );
    // Newest first.
    expect(await found(owner.agent)).toEqual([
      ["Ada Admin", "Ada Admin"],
      ["Acme (Carla)", "Carla Jones"],
      ["Sam Staff", "Sam Staff"],
      ["Olivia Owner", "Olivia Owner"],
    ]);
    expect(await found(client.agent)).toEqual([
      ["Studio Olivia", "Ada Admin"],
      ["Acme (Carla)", "Carla Jones"],
      ["Studio Olivia", "Sam Staff"],
      ["Studio Olivia", "Olivia Owner"],
    ]);
  });
});

describe("a team member's profile picture", () => {
  it("is served to the clients of the conversations they wrote in and to their colleagues, to no one else", async () => {
    await postAsTeamMember(server, sam, client.id, "Sam was here");
    // Tia has a picture but has not written to Carla.
    const tia = await addTeamMember(server, owner, { fullName: "Tia Quiet" });
    const tiaPicture = await uploadProfilePicture(tia.agent, "#aa2255");
    // Another client of the same owner, whom Sam never wrote to.
    const dan = await addJoinedClient(server, owner, { name: "Dan Client" });
    const stranger = await signUpOwner(server, "Oscar Other");
    const strangersClient = await addJoinedClient(server, stranger, { name: "Stan Stranger" });

    const status = async (agent: { get(path: string): Promise<{ status: number }> }, url: string) =>
      (await agent.get(url)).status;
    // The author's picture beside their messages in the portal, and the agency's owner's.
    expect(await status(client.agent, samPicture)).toBe(200);
    expect(await status(client.agent, ownerPicture)).toBe(200);
    expect(await status(client.agent, tiaPicture)).toBe(404);
    // Colleagues see each other's pictures (the dashboard's messages, the Team tab).
    expect(await status(owner.agent, samPicture)).toBe(200);
    expect(await status(owner.agent, tiaPicture)).toBe(200);
    expect(await status(sam.agent, ownerPicture)).toBe(200);
    expect(await status(ada.agent, samPicture)).toBe(200);
    // No one else: another client of the owner, another owner and their client, anonymous.
    expect(await status(dan.agent, samPicture)).toBe(404);
    expect(await status(dan.agent, ownerPicture)).toBe(200);
    expect(await status(stranger.agent, samPicture)).toBe(404);
    expect(await status(strangersClient.agent, samPicture)).toBe(404);
    expect(await status(server.agent(), samPicture)).toBe(404);
    // A replaced picture is no one's to see but its uploader's own (it is deleted).
    const newPicture = await uploadProfilePicture(sam.agent, "#000000");
    expect(await status(client.agent, samPicture)).toBe(404);
    expect(await status(client.agent, newPicture)).toBe(200);
    samPicture = newPicture;
  });
});
