import { BaseModel } from "./BaseModel";

export type EmailCodePurpose = "verify_email" | "reset_password" | "sign_in_link";

export class EmailCode extends BaseModel {
  static override tableName = "email_codes";

  id!: string;
  userId!: string;
  purpose!: EmailCodePurpose;
  codeHash!: string;
  /** The code itself, sealed (auth/sealed-tokens), so that it can be sent again; codes only. */
  codeSealed!: string | null;
  /** How often this code was sent again (counts against the hourly cap). */
  resentCount!: number;
  failedAttempts!: number;
  expiresAt!: Date;
  usedAt!: Date | null;
  createdAt!: Date;
}
