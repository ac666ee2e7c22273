import { BaseModel } from "./BaseModel";
import { Client } from "./Client";
import { User } from "./User";

/**
 * An uploaded file: its bytes live in Storage under `storedName` (random, made by the server);
 * `originalName` is the client's name, kept for display only. `clientId` is set for files of
 * a conversation and null for a user's own images (profile picture, company logo).
 */
export class StoredFile extends BaseModel {
  static override tableName = "files";

  id!: string;
  storedName!: string;
  originalName!: string;
  contentType!: string;
  sizeBytes!: number;
  uploadedBy!: string | null;
  clientId!: string | null;
  /** SHA-256 of the stored bytes (hex), kept once the approval record computed it. */
  sha256!: string | null;
  createdAt!: Date;

  uploader?: User;
  client?: Client;

  static override relationMappings = () => ({
    uploader: {
      relation: BaseModel.BelongsToOneRelation,
      modelClass: User,
      join: { from: "files.uploadedBy", to: "users.id" },
    },
    client: {
      relation: BaseModel.BelongsToOneRelation,
      modelClass: Client,
      join: { from: "files.clientId", to: "clients.id" },
    },
  });
}
