import type { Services } from "../context";
import type { DomainEvent, EventListener } from "../domain-events/events";
import { Client } from "../models";

type RealtimeServices = Pick<Services, "db" | "realtime">;

/**
 * How long the sockets of a browser that changed its own password stay open: long enough for
 * the answer carrying its new cookie to arrive, so that it reconnects signed in.
 */
export const RENEWED_SESSION_GRACE_MS = 5_000;

/**
 * Tells open pages what happened, on every instance (server/realtime): the conversation's two
 * sides hear of its messages, decisions, reads and a client's join; an owner's branding or plan
 * reaches their joined clients' portals; ended sessions and deleted users lose their sockets.
 * Safe to repeat: a page that hears of a message twice fetches after the seq it has.
 */
export const realtimeListener: EventListener<RealtimeServices> = {
  name: "realtime",
  handles: [
    "MessageCreated",
    "FileUploaded",
    "VersionUploaded",
    "FeedbackDecided",
    "MessagesRead",
    "ClientJoined",
    "ClientDeleted",
    "AccountDeleted",
    "BrandingChanged",
    "PlanChanged",
    "SessionEnded",
  ],
  async handle(services, { event }) {
    await announce(services, event);
  },
};

async function announce(services: RealtimeServices, event: DomainEvent): Promise<void> {
  const { realtime } = services;
  switch (event.type) {
    case "MessageCreated":
    case "FileUploaded":
    case "VersionUploaded":
      return realtime.publish({
        type: "new_message",
        clientId: event.clientId,
        messageId: event.messageId,
      });
    case "FeedbackDecided":
      return realtime.publish({
        type: "feedback_updated",
        clientId: event.clientId,
        messageId: event.messageId,
      });
    case "MessagesRead":
      return realtime.publish({
        type: "messages_read",
        clientId: event.clientId,
        messageId: event.messageId,
      });
    case "ClientJoined":
      return realtime.publish({ type: "client_joined", clientId: event.clientId });
    case "ClientDeleted":
      return event.userId ? realtime.disconnectUsers([event.userId]) : undefined;
    case "AccountDeleted":
      return realtime.disconnectUsers(event.userIds);
    case "BrandingChanged":
    case "PlanChanged": {
      // What a portal shows of its owner changed: one branding_updated per joined client,
      // sent side by side (an owner with many clients waits for one round trip).
      const joined = await Client.query(services.db)
        .select("id")
        .where("ownerId", event.ownerId)
        .whereNotNull("userId");
      await Promise.all(
        joined.map(({ id }) => realtime.publish({ type: "branding_updated", clientId: id })),
      );
      return;
    }
    case "SessionEnded":
      await Promise.all([
        ...event.sessionHashes.map((hash) => realtime.endSession(hash)),
        event.signedInAnew && realtime.endSession(event.signedInAnew, RENEWED_SESSION_GRACE_MS),
      ]);
      return;
  }
}
