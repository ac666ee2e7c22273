import { BaseModel } from "./BaseModel";

/**
 * A further person of a client (issue 26, migration 20261129100000_client_contacts): their own
 * invite, user once joined, and email delay. The first contact is the client row itself.
 */
export class ClientContact extends BaseModel {
  static override tableName = "client_contacts";

  id!: string;
  clientId!: string;
  userId!: string | null;
  name!: string;
  email!: string;
  inviteTokenHash!: string | null;
  inviteTokenEncrypted!: string | null;
  inviteIssuedAt!: Date | null;
  joinedAt!: Date | null;
  emailNotificationDelay!: number;
  createdAt!: Date;
}
