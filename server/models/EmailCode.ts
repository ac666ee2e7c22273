import { BaseModel } from "./BaseModel";

export type EmailCodePurpose = "verify_email" | "reset_password" | "sign_in_link";

export class EmailCode extends BaseModel {
  static override tableName = "email_codes";

  id!: string;
  userId!: string;
  purpose!: EmailCodePurpose;
  codeHash!: string;
  failedAttempts!: number;
  expiresAt!: Date;
  usedAt!: Date | null;
  createdAt!: Date;
}
