import { BaseModel } from "./BaseModel";

export type DataExportStatus = "queued" | "building" | "ready" | "expired" | "failed";

/** An export too large to stream at once, built by the data-exports job (see its migration). */
export class DataExport extends BaseModel {
  static override tableName = "data_exports";

  id!: string;
  requestedBy!: string;
  workspaceId!: string;
  /** Null: the whole workspace. */
  clientId!: string | null;
  status!: DataExportStatus;
  attempts!: number;
  leaseUntil!: Date | null;
  storedName!: string | null;
  /** The name the download is saved under (clientdesk-<slug>-<date>.zip). */
  fileName!: string;
  sizeBytes!: number | string | null;
  tokenHash!: string | null;
  expiresAt!: Date | null;
  createdAt!: Date;
}
