import type { DeletedClient } from "../../shared/schemas/deleted-clients";
import type { DeletedClientView } from "../queries/deleted-clients";

/** Every field of a deleted client that leaves the server (issue 28), listed. */
export function presentDeletedClient({
  client,
  deletedByName,
  purgeAt,
}: DeletedClientView): DeletedClient {
  return {
    id: client.id,
    name: client.name,
    email: client.email,
    deletedAt: new Date(client.deletedAt!).toISOString(),
    deletedBy: deletedByName,
    purgeAt: purgeAt.toISOString(),
  };
}
