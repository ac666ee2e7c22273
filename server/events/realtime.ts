import type { Services } from "../context";
import type { DomainEvent, EventListener, RecordedEvent } from "../domain-events/events";
import { Client, type Message, User } from "../models";
import { sidesThatHear, sidesThatMaySee } from "../policies/message-events";
import { presentNewMessage } from "../presenters/message";

type RealtimeServices = Pick<Services, "db" | "realtime">;

/**
 * How long the sockets of a browser that changed its own password stay open: long enough for
 * the answer carrying its new cookie to arrive, so that it reconnects signed in.
 */
export const RENEWED_SESSION_GRACE_MS = 5_000;

/**
 * Tells open pages what happened, on every instance (server/realtime): the conversation's two
 * sides hear of its messages, decisions, reads and a client's join; an owner's branding or plan
 * reaches their joined clients' portals; ended sessions and deleted users lose their sockets;
 * a workspace's staff hear that their team changed (and that the plan changed, which decides
 * its seats).
 * Safe to repeat: a page that hears of a message twice fetches after the seq it has.
 *
 * A new text or file carries the message as each side sees it, presented from the rows the
 * command wrote (no query), with the id of the message before it: the other side shows it
 * without a request. A new version (which changes the older one too), or an event run again by
 * another instance (no rows at hand), goes with ids only, and the pages fetch.
 */
export const realtimeListener: EventListener<RealtimeServices> = {
  name: "realtime",
  handles: [
    "MessageCreated",
    "FileUploaded",
    "VersionUploaded",
    "FeedbackDecided",
    "MessageEdited",
    "MessageDeleted",
    "AnnotationsChanged",
    "ScheduledMessagesChanged",
    "DueDateChanged",
    "MessagesRead",
    "ClientJoined",
    "ClientAssigneesChanged",
    "ClientDeleted",
    "ClientRestored",
    "AccountDeleted",
    "BrandingChanged",
    "PlanChanged",
    "SessionEnded",
    "TeamChanged",
  ],
  async handle(services, recorded) {
    await announce(services, recorded);
  },
};

type MessageEvent = Extract<DomainEvent, { senderId: string }>;

async function announceMessage(
  services: RealtimeServices,
  { event, loaded }: RecordedEvent<MessageEvent>,
): Promise<void> {
  const ids = {
    type: "new_message" as const,
    clientId: event.clientId,
    messageId: event.messageId,
  };
  const { sender, client, message } = (loaded ?? {}) as {
    sender?: User;
    client?: Client;
    message?: Message;
  };
  // An internal note (issue 26) goes to the owner's side only: the client's sockets do not
  // even hear its ids, whether the event carries views or not.
  const sides = sidesThatHear(event.visibility);
  if (event.type === "VersionUploaded" || !sender || !client || message?.previousId === undefined)
    return services.realtime.publish(ids, undefined, sides);
  // A team member's message: the portal names the owner's side after the workspace's owner
  // (their company name), whose row is read; the owner's own messages need no query.
  const workspaceOwner =
    sender.role === "owner" && sender.id !== client.ownerId
      ? await User.query(services.db).select("fullName", "companyName").findById(client.ownerId)
      : sender;
  if (!workspaceOwner) return services.realtime.publish(ids, undefined, sides);
  const views = sidesThatMaySee(client, message.visibility);
  return services.realtime.publish(
    { ...ids, afterId: message.previousId },
    presentNewMessage(message, sender, client, views, workspaceOwner),
    sides,
  );
}

/**
 * Tells the staff of workspace `workspaceId` (as they are now: someone just removed is not, and
 * their sockets close with their sessions) that their team changed. Clients have no workspace.
 */
async function announceTeamChange(services: RealtimeServices, workspaceId: string): Promise<void> {
  const staff = await User.query(services.db).select("id").where({ workspaceId, role: "owner" });
  return services.realtime.teamChanged(staff.map((person) => person.id));
}

/**
 * A client of workspace `workspaceId` was set aside or restored (issue 28): its staff's pages
 * look at the client list, the conversation (gone: 404) and Deleted clients again.
 */
async function announceClientListChange(
  services: RealtimeServices,
  clientId: string,
  workspaceId: string,
): Promise<void> {
  const staff = await User.query(services.db).select("id").where({ workspaceId, role: "owner" });
  await services.realtime.accessChanged(
    clientId,
    staff.map((person) => person.id),
  );
}

async function announce(services: RealtimeServices, recorded: RecordedEvent): Promise<void> {
  const { realtime } = services;
  const { event } = recorded;
  switch (event.type) {
    case "MessageCreated":
    case "FileUploaded":
    case "VersionUploaded":
      return announceMessage(services, recorded as RecordedEvent<MessageEvent>);
    case "FeedbackDecided":
    case "DueDateChanged":
      return realtime.publish({
        type: "feedback_updated",
        clientId: event.clientId,
        messageId: event.messageId,
      });
    case "MessageEdited":
    case "MessageDeleted":
      return realtime.publish(
        {
          type: event.type === "MessageEdited" ? "message_updated" : "message_deleted",
          clientId: event.clientId,
          messageId: event.messageId,
        },
        undefined,
        sidesThatHear(event.visibility),
      );
    case "AnnotationsChanged":
      return realtime.publish(
        { type: "annotations_changed", clientId: event.clientId, messageId: event.messageId },
        undefined,
        sidesThatHear(event.visibility),
      );
    case "ScheduledMessagesChanged":
      return realtime.publish({ type: "scheduled_changed", clientId: event.clientId }, undefined, [
        event.side,
      ]);
    case "MessagesRead":
      return realtime.publish({
        type: "messages_read",
        clientId: event.clientId,
        messageId: event.messageId,
      });
    case "ClientJoined":
      return realtime.publish({ type: "client_joined", clientId: event.clientId });
    case "ClientAssigneesChanged": {
      // The assignees who gained or lost it, and the workspace's owner and admins, who see
      // every client with who handles it.
      const client = await Client.query(services.db).select("ownerId").findById(event.clientId);
      const managers = client
        ? await User.query(services.db)
            .select("id")
            .where("workspaceId", client.ownerId)
            .whereIn("teamRole", ["owner", "admin"])
        : [];
      return realtime.accessChanged(event.clientId, [
        ...new Set([...event.userIds, ...managers.map((manager) => manager.id)]),
      ]);
    }
    case "ClientDeleted":
      await Promise.all([
        event.userIds.length > 0 && realtime.disconnectUsers(event.userIds),
        event.workspaceId && announceClientListChange(services, event.clientId, event.workspaceId),
      ]);
      return;
    case "ClientRestored":
      return announceClientListChange(services, event.clientId, event.workspaceId);
    case "AccountDeleted":
      return realtime.disconnectUsers(event.userIds);
    case "BrandingChanged":
    case "PlanChanged": {
      // What a portal shows of its owner changed: one branding_updated per joined client,
      // sent side by side (an owner with many clients waits for one round trip).
      const joined = await Client.query(services.db)
        .select("id")
        .where("ownerId", event.ownerId)
        .whereNull("deletedAt")
        .whereNotNull("userId");
      await Promise.all([
        ...joined.map(({ id }) => realtime.publish({ type: "branding_updated", clientId: id })),
        event.type === "PlanChanged" && announceTeamChange(services, event.ownerId),
      ]);
      return;
    }
    case "TeamChanged":
      return announceTeamChange(services, event.workspaceId);
    case "SessionEnded":
      await Promise.all([
        ...event.sessionHashes.map((hash) => realtime.endSession(hash)),
        event.signedInAnew && realtime.endSession(event.signedInAnew, RENEWED_SESSION_GRACE_MS),
      ]);
      return;
  }
}
