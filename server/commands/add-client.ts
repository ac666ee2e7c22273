import { randomUUID } from "node:crypto";
import type { AddClientInput } from "../../shared/schemas/clients";
import { TIER_CONFIG, canCreateMoreClients } from "../../shared/tiers";
import { recordAudit } from "../audit/record-audit";
import { InviteTokens } from "../auth/invite-tokens";
import { featureTier } from "../billing/feature-tier";
import type { Services } from "../context";
import { forbidden } from "../errors";
import { Client, User } from "../models";
import { hasShortLinks } from "../policies/clients";
import { workspaceOwnerOf } from "../queries/workspace-owner";
import { ensureShortLink } from "./create-short-link";
import { inviteMailFor } from "./invite-mail";

export interface AddedClient {
  client: Client;
  owner: User;
  token: string;
  /** Made on the paid plans only. */
  shortCode: string | null;
  /** The invite link was put in the outbox for the client (input.sendInviteEmail). */
  inviteEmailed: boolean;
}

/**
 * Adds a client with a fresh invite within the plan's client limit. The owner row is locked
 * for the count and the insert, so two adds at the same moment cannot pass the limit together.
 * The invite email, when asked for, is written to the outbox with the client: both or neither.
 */
export async function addClient(
  services: Services,
  actor: User,
  input: AddClientInput,
): Promise<AddedClient> {
  const { db, config, clock } = services;
  const id = randomUUID();
  const invite = new InviteTokens(config.sessionSecret).issue(id);
  // The workspace's owner holds its plan and branding (issue 26), whoever of its staff adds.
  const mail = input.sendInviteEmail
    ? await inviteMailFor(
        services,
        await workspaceOwnerOf(db, actor),
        // A new client has no language of its own yet: the invite is in the workspace's.
        { ...input, language: null },
        invite.token,
      )
    : null;
  return db.transaction(async (trx) => {
    const owner = await User.query(trx)
      .findById(actor.workspaceId ?? actor.id)
      .forUpdate()
      .throwIfNotFound();
    const count = await Client.countOfOwner(trx, owner.id);
    const tier = featureTier(config, owner.accountTier);
    if (!canCreateMoreClients(tier, count)) {
      throw forbidden("Client limit reached. Upgrade your {{plan}} plan to add more clients", {
        plan: TIER_CONFIG[tier].name,
      });
    }
    const client = await Client.query(trx).insertAndFetch({
      id,
      ownerId: owner.id,
      name: input.name,
      email: input.email,
      language: input.language,
      inviteTokenHash: invite.hash,
      inviteTokenEncrypted: invite.encrypted,
      inviteIssuedAt: clock.now(),
    });
    // A member has only the clients assigned to them: the one they add is theirs, as its lead.
    if (actor.teamRole === "member")
      await trx("client_assignees").insert({ clientId: client.id, userId: actor.id, isLead: true });
    const shortCode = hasShortLinks(tier) ? await ensureShortLink(trx, client.id) : null;
    if (mail) await services.outbox.enqueue(trx, mail, "invite");
    await recordAudit(services, trx, {
      workspaceId: owner.id,
      actor,
      action: "client.added",
      subject: { type: "client", id: client.id, label: client.name },
    });
    return { client, owner, token: invite.token, shortCode, inviteEmailed: mail !== null };
  });
}
