import { forbidden } from "../errors";
import type { User } from "../models";
import { definePolicy } from "./policy";

/** A workspace's people (issue 26): its members see who is in it; clients have no workspace. */
export const teamPolicy = definePolicy({
  listMembers: (actor: User) =>
    actor.workspaceId !== null || forbidden("Only members of a workspace can do that"),
});
