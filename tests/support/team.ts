import sharp from "sharp";
import { expect } from "vitest";
import { hashPassword } from "../../server/auth/passwords";
import { sendMessage } from "../../server/commands/send-message";
import { Client, type Message, User } from "../../server/models";
import type { TeamRole } from "../../shared/schemas/team";
import { type SignedInOwner, signUpOwner, uniqueEmail } from "./factories";
import type { TestAgent, TestServer } from "./server";

export interface TeamMember {
  id: string;
  email: string;
  fullName: string;
  /** Signed in through POST /api/login. */
  agent: TestAgent;
}

/**
 * A second person on `owner`'s side (issue 26), made in the database until staff invitations
 * exist: an owner-side user in the owner's workspace with `teamRole`, verified, then signed in
 * through POST /api/login as anyone else.
 */
export async function addTeamMember(
  server: Pick<TestServer, "agent">,
  owner: { id: string },
  options: { fullName?: string; teamRole?: Exclude<TeamRole, "owner"> } = {},
): Promise<TeamMember> {
  const email = uniqueEmail("staff");
  const password = "staff horse battery";
  const fullName = options.fullName ?? "Sam Staff";
  const user = await User.query().insertAndFetch({
    email,
    fullName,
    role: "owner",
    workspaceId: owner.id,
    teamRole: options.teamRole ?? "member",
    passwordHash: await hashPassword(password),
    emailVerifiedAt: new Date(),
  });
  const agent = server.agent();
  const signedIn = await agent.post("/api/login", { username: email, password });
  expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
  return { id: user.id, email, fullName, agent };
}

/**
 * A message written by `member` in `clientId`'s conversation, through the command the app
 * posts with (its realtime event included), whether or not the member has the client.
 */
export async function postAsTeamMember(
  server: Pick<TestServer, "services">,
  member: { id: string },
  clientId: string,
  content: string,
): Promise<Message> {
  const [actor, client] = await Promise.all([
    User.query().findById(member.id).throwIfNotFound(),
    Client.query().findById(clientId).throwIfNotFound(),
  ]);
  return sendMessage(server.services, actor, client, { content });
}

/** Uploads a profile picture (a plain square of `color`) as `agent`'s user; its URL. */
export async function uploadProfilePicture(agent: TestAgent, color = "#ff6600"): Promise<string> {
  const image = await sharp({ create: { width: 96, height: 96, channels: 3, background: color } })
    .png()
    .toBuffer();
  const body = new FormData();
  body.append("profilePicture", new Blob([image], { type: "image/png" }), "me.png");
  const response = await agent.request("POST", "/api/user/profile-picture", { body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.user.profilePicture as string;
}

/**
 * A person on `owner`'s staff with `role`, signed up on their own through the API (a
 * workspace of their own at first), then moved into the owner's workspace in the database, as
 * joining by a team invite leaves them.
 */
export async function addStaff(
  server: Pick<TestServer, "agent" | "smtp">,
  owner: SignedInOwner,
  role: Exclude<TeamRole, "owner">,
  fullName = role === "admin" ? "Adam Admin" : "Mia Member",
): Promise<SignedInOwner> {
  const staff = await signUpOwner(server, fullName);
  await User.query().patch({ workspaceId: owner.id, teamRole: role }).where("id", staff.id);
  return staff;
}
