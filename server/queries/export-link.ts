import { createHash } from "node:crypto";
import type { Knex } from "knex";
import { DataExport } from "../models";

/** A mailed export (issue 28) by its link's token (stored hashed); undefined for any other. */
export async function findExportByToken(db: Knex, token: string): Promise<DataExport | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  const tokenHash = createHash("sha256").update(token).digest("hex");
  return DataExport.query(db).findOne({ tokenHash });
}
