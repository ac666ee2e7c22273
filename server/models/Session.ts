import { BaseModel } from "./BaseModel";

export class Session extends BaseModel {
  static override tableName = "sessions";

  static override idColumn = "idHash";

  idHash!: string;
  userId!: string;
  createdAt!: Date;
  expiresAt!: Date;
  userAgent!: string | null;
}
