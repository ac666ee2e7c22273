import type { TeamRole } from "../../shared/schemas/team";
import { User } from "../../server/models";
import { type SignedInOwner, signUpOwner } from "./factories";
import type { TestServer } from "./server";

/**
 * A person on `owner`'s staff with `role` (issue 26): signed up on their own, then moved into
 * the owner's workspace in the database, as joining by a team invite leaves them.
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
