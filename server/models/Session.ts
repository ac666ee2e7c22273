import type { StaticHookArguments } from "objection";
import { sessionDataChanged } from "./session-data-changes";
import { BaseModel } from "./BaseModel";

export class Session extends BaseModel {
  static override tableName = "sessions";

  static override idColumn = "idHash";

  idHash!: string;
  userId!: string;
  createdAt!: Date;
  expiresAt!: Date;
  userAgent!: string | null;

  // Signed-in users are cached briefly (auth/session-cache): any change empties the cache.
  static override afterUpdate({ transaction }: StaticHookArguments<never>) {
    sessionDataChanged(transaction);
  }

  static override afterDelete({ transaction }: StaticHookArguments<never>) {
    sessionDataChanged(transaction);
  }
}
