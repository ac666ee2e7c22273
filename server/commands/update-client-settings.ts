import type { Knex } from "knex";
import type { ClientNotificationSettingsInput } from "../../shared/schemas/clients";
import { Client } from "../models";

/** The client's own email notification delay. */
export async function updateClientNotificationSettings(
  db: Knex,
  client: Client,
  input: ClientNotificationSettingsInput,
): Promise<void> {
  await Client.query(db)
    .patch({ emailNotificationDelay: input.emailNotificationDelay })
    .where("id", client.id);
}
