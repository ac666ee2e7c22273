import { BaseModel } from "./BaseModel";

/** A short code for a client's invite: it resolves to whatever token is live at the time. */
export class ShortLink extends BaseModel {
  static override tableName = "short_links";
  static override idColumn = "code";

  code!: string;
  clientId!: string;
  createdAt!: Date;
}
