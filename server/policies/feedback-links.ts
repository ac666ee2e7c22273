import { forbidden, notFound } from "../errors";
import type { Client, FeedbackLink, User } from "../models";
import { isClientOf } from "./conversation-sides";
import { definePolicy } from "./policy";

/** An email's link as the rule sees it: the conversation, and who this browser is signed in as. */
export interface FeedbackLinkSubject {
  link: FeedbackLink;
  client: Client;
  /** The browser's signed-in user, if any (the link itself is the authority). */
  viewer: User | undefined;
}

/**
 * Approve from the inbox. The actor is the client user the link was mailed to: the token is
 * their authority, as an invite link is, whoever's browser opens it. Refused: a link whose
 * conversation no longer has that user (404), and the conversation's owner, signed in here,
 * using it (403: the owner never decides on their own file, and the link stays live).
 */
export const feedbackLinkPolicy = definePolicy({
  decide: (actor: User, subject: FeedbackLinkSubject) => {
    if (!isClientOf(actor, subject.client) || subject.link.userId !== actor.id)
      return notFound("This link is not valid.");
    // The workspace's staff (issue 26), whichever of them is signed in here.
    if (subject.viewer?.role === "owner" && subject.viewer.workspaceId === subject.client.ownerId)
      return forbidden("This link is for your client: only they can decide on this file.");
    return true;
  },
});
