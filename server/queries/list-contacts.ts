import type { Knex } from "knex";
import type { Client } from "../models";

/** One of a client's people, with their own read mark (presenters/contact.ts). */
export interface ContactRow {
  id: string;
  name: string;
  email: string;
  primary: boolean;
  joinedAt: Date | null;
  lastReadSeq: number;
  readAt: Date | null;
}

/**
 * A client's people (issue 26): the client itself first (the first contact), then the further
 * contacts in the order they were added, each with how far they have read.
 */
export async function listContacts(db: Knex, client: Client): Promise<ContactRow[]> {
  // Each person's own read mark (notification_states is per person).
  const marks = await db("notificationStates")
    .select("recipientUserId", "lastReadSeq", "readAt")
    .where({ clientId: client.id, recipientRole: "client" });
  const markOf = (userId: string | null) => {
    const mark = userId ? marks.find((row) => row.recipientUserId === userId) : undefined;
    return { lastReadSeq: Number(mark?.lastReadSeq ?? 0), readAt: mark?.readAt ?? null };
  };
  const contacts = await db("clientContacts")
    .select("id", "name", "email", "userId", "joinedAt")
    .where("clientId", client.id)
    .orderBy([{ column: "createdAt" }, { column: "id" }]);
  return [
    {
      id: client.id,
      name: client.name,
      email: client.email,
      primary: true,
      joinedAt: client.joinedAt && client.userId ? client.joinedAt : null,
      ...markOf(client.userId),
    },
    ...contacts.map((contact) => ({
      id: contact.id,
      name: contact.name,
      email: contact.email,
      primary: false,
      joinedAt: contact.joinedAt,
      ...markOf(contact.userId),
    })),
  ];
}

/**
 * The email delay of a client-side person: the client's own for its first contact, else their
 * contact row's (issue 26). Undefined for anyone else.
 */
export async function delayOfContact(
  db: Knex,
  client: Client,
  userId: string,
): Promise<number | undefined> {
  if (userId === client.userId) return client.emailNotificationDelay;
  const contact = await db("clientContacts")
    .select("emailNotificationDelay")
    .where({ clientId: client.id, userId })
    .first();
  return contact?.emailNotificationDelay;
}

/** The users of a client's people who joined (issue 26): who is told of the staff's messages. */
export async function clientPeopleIds(db: Knex, clientId: string): Promise<string[]> {
  const rows = await db("users").select("id").where({ clientId, role: "client" });
  return rows.map((row: { id: string }) => row.id);
}
