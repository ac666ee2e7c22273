import { Client, type User } from "../models";

/** The conversation a client user belongs to (null for owners). */
export async function userClientId(user: User): Promise<string | null> {
  if (user.role !== "client") return null;
  const client = await Client.query().select("id").findOne({ userId: user.id });
  return client?.id ?? null;
}
