import type { Knex } from "knex";
import type { ClientNotificationSettingsInput } from "../../shared/schemas/clients";
import { Client, ClientContact, type User } from "../models";

/** A client-side person's own email notification delay: the client's, or a contact's (issue 26). */
export async function updateClientNotificationSettings(
  db: Knex,
  actor: User,
  client: Client,
  input: ClientNotificationSettingsInput,
): Promise<void> {
  const delay = { emailNotificationDelay: input.emailNotificationDelay };
  if (actor.id === client.userId) await Client.query(db).patch(delay).where("id", client.id);
  else await ClientContact.query(db).patch(delay).where({ clientId: client.id, userId: actor.id });
}
