import { BaseModel } from "./BaseModel";
import { User } from "./User";

export class Client extends BaseModel {
  static override tableName = "clients";

  id!: string;
  ownerId!: string;
  userId!: string | null;
  name!: string;
  email!: string;
  inviteTokenHash!: string | null;
  /** The live token, encrypted (see auth/invite-tokens.ts), so the owner can copy the link again. */
  inviteTokenEncrypted!: string | null;
  inviteIssuedAt!: Date | null;
  joinedAt!: Date | null;
  emailNotificationDelay!: number;
  createdAt!: Date;
  updatedAt!: Date;

  owner?: User;

  static override relationMappings = () => ({
    owner: {
      relation: BaseModel.BelongsToOneRelation,
      modelClass: User,
      join: { from: "clients.ownerId", to: "users.id" },
    },
  });

  override $beforeUpdate() {
    this.updatedAt = new Date();
  }
}
