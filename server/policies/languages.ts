import { forbidden } from "../errors";
import type { User } from "../models";
import { seesEveryClient } from "./conversation-sides";
import { definePolicy } from "./policy";

const staff = (actor: User) => actor.role === "owner" || forbidden("Only owners can do that");

/**
 * Who sets which language (issue 29). A client's invite language is clientsPolicy's
 * `setLanguage` (the staff who have the client).
 */
export const languagesPolicy = definePolicy({
  /** Everyone signed in reads in a language of their own. */
  setOwn: () => true,
  /** Any of the staff see it (the add-client dialog names it as the default). */
  readWorkspace: (actor: User) => staff(actor),
  /** The workspace's owner and admins, who run it. */
  setWorkspace: (actor: User) => {
    const isStaff = staff(actor);
    if (isStaff !== true) return isStaff;
    return seesEveryClient(actor) || forbidden("Only the workspace's owner and admins can do that");
  },
});
