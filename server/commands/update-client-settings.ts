import type { ClientNotificationSettingsInput } from "../../shared/schemas/clients";
import { Client } from "../models";

/** The client's own email notification delay. */
export async function updateClientNotificationSettings(
  client: Client,
  input: ClientNotificationSettingsInput,
): Promise<void> {
  await Client.query()
    .patch({ emailNotificationDelay: input.emailNotificationDelay })
    .where("id", client.id);
}
