import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type {
  ClientAssignees,
  InviteLinkResponse,
  ShortLinkResponse,
} from "../../../shared/schemas/clients";
import { apiDelete, apiGet, apiPost, serverMessage } from "../api/client";
import { useCurrentUser } from "../api/current-user";
import { queryKeys } from "../api/query-keys";
import { useRetentionDays } from "../api/retention";
import { useMyTeamRole, useTeamMembers } from "../api/team-members";
import { usePlatform } from "../platform/platform-context";
import { exportPaths } from "../../../shared/schemas/exports";
import { ExportButton } from "../conversation/export-button";
import { Button } from "../ui/button";
import { copyText } from "../ui/clipboard";
import { LinkIcon, RefreshIcon, TrashIcon, UsersIcon } from "../ui/icons";
import { OnceOpened } from "../ui/once-opened";
import { useToast } from "../ui/toast";
import type { OwnerClient } from "./clients-query";
import type { InviteLinks } from "./invite-link-chooser";

interface ClientActionsProps {
  client: OwnerClient;
  onShowInviteLinks: (links: InviteLinks) => void;
}

const AssignDialog = lazy(() =>
  import("./assign-dialog").then((m) => ({ default: m.AssignDialog })),
);

const ContactsDialog = lazy(() =>
  import("./contacts-dialog").then((m) => ({ default: m.ContactsDialog })),
);

/** The confirmations (and the dialog code with them) load when first asked for. */
const ConfirmDialog = lazy(() =>
  import("../ui/confirm-dialog").then((m) => ({ default: m.ConfirmDialog })),
);

const NO_ASSIGNEES: ClientAssignees = { assigneeIds: [], leadUserId: null };

const clientPath = (client: OwnerClient) => `/api/clients/${encodeURIComponent(client.id)}`;

/**
 * The client's tiny link, or null where it is refused (free plan, no live invite) or fails:
 * the standard link is used then (spec section 7, short-link).
 */
async function tinyLink(client: OwnerClient, tier: string | undefined): Promise<string | null> {
  if (tier === "free") return null;
  try {
    const answer = await apiPost<ShortLinkResponse>(`${clientPath(client)}/short-link`);
    return answer?.shortUrl ?? null;
  } catch {
    return null;
  }
}

/** Header actions: copy the invite link (pending), a new invite link (joined), delete. */
export function ClientActions({ client, onShowInviteLinks }: ClientActionsProps) {
  const [confirm, setConfirm] = useState<"delete" | "reissue" | "assign" | "contacts" | null>(null);
  const team = useTeamMembers();
  const myRole = useMyTeamRole();
  // Assigning is for the workspace's owner and admins, once there is a team to assign.
  const canAssign = myRole !== undefined && myRole !== "member" && (team.data?.length ?? 0) > 1;
  const assigned = useQuery({
    queryKey: queryKeys.assignees(client.id),
    queryFn: () => apiGet<ClientAssignees>(`${clientPath(client)}/assignees`),
    enabled: canAssign,
  });
  const assignees = (team.data ?? []).filter((member) =>
    assigned.data?.assigneeIds.includes(member.id),
  );
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const platform = usePlatform();
  const { data: user } = useCurrentUser();
  const { t } = useTranslation("dashboard");
  const origin = platform.serverUrl || window.location.origin;

  const copyInvite = useMutation({
    mutationFn: async () => {
      // The server sends no event when a client joins: ask for the list again first, so a
      // used (dead) link is never copied. The header then shows "Joined" instead.
      await queryClient.refetchQueries({ queryKey: queryKeys.clients, exact: true });
      const fresh = queryClient
        .getQueryData<OwnerClient[]>(queryKeys.clients)
        ?.find((candidate) => candidate.id === client.id);
      if (fresh?.joinedAt) {
        throw new Error(
          t('{{client}} has already joined. Use "New invite link" if they lost access.', {
            client: client.name,
          }),
        );
      }
      const token = fresh?.inviteToken ?? client.inviteToken;
      if (!token) throw new Error(t("This client has no invite link to copy."));
      const standardUrl = `${origin}/invite/${token}`;
      const tinyUrl = await tinyLink(client, user?.accountTier);
      if (tinyUrl)
        return { links: { clientName: client.name, standardUrl, tinyUrl }, copied: false };
      return {
        links: { clientName: client.name, standardUrl, tinyUrl: null },
        copied: await copyText(standardUrl),
      };
    },
    onSuccess: ({ links, copied }) => {
      // With a tiny link there is a choice to make; otherwise the one link is copied at once.
      if (copied) toast({ title: t("Invite link copied!"), variant: "success" });
      else onShowInviteLinks(links);
    },
    onError: (error) =>
      toast({
        title: t("Couldn't copy the invite link"),
        description: serverMessage(error, error.message || t("Please try again")),
        variant: "destructive",
      }),
  });

  const reissue = useMutation({
    mutationFn: async () => {
      const answer = await apiPost<InviteLinkResponse>(`${clientPath(client)}/invite`);
      return {
        clientName: client.name,
        standardUrl: answer.inviteUrl,
        tinyUrl: await tinyLink(client, user?.accountTier),
      };
    },
    onSuccess: (links) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.clients });
      setConfirm(null);
      onShowInviteLinks(links);
    },
    onError: (error) =>
      toast({
        title: t("Failed to create a new invite link"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  const remove = useMutation({
    mutationFn: () => apiDelete(clientPath(client)),
    onSuccess: () => {
      setConfirm(null);
      toast({ title: t("Client deleted successfully"), variant: "success" });
      navigate("/", { replace: true });
      queryClient.removeQueries({ queryKey: queryKeys.messages(client.id) });
      queryClient.removeQueries({ queryKey: queryKeys.attachments(client.id) });
      queryClient.removeQueries({ queryKey: queryKeys.allSearches });
      void queryClient.invalidateQueries({ queryKey: queryKeys.clients });
      void queryClient.invalidateQueries({ queryKey: queryKeys.accountTier });
    },
    onError: (error) =>
      toast({
        title: t("Failed to delete client"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  return (
    <div className="client-header__actions">
      {canAssign && assigned.data && (
        <Button
          variant="secondary"
          size="sm"
          icon={<UsersIcon />}
          onClick={() => setConfirm("assign")}
          aria-label={
            assignees.length
              ? t("Assigned to {{names}}: change", {
                  names: assignees.map((member) => member.fullName).join(", "),
                })
              : t("Assign {{client}}", { client: client.name })
          }
        >
          {assignees.length === 0
            ? t("Assign")
            : assignees.length === 1
              ? assignees[0]!.fullName
              : t("{{count}} people", { count: assignees.length })}
        </Button>
      )}
      <Button
        variant="secondary"
        size="sm"
        icon={<UsersIcon />}
        onClick={() => setConfirm("contacts")}
        aria-label={t("People at {{client}}", { client: client.name })}
      >
        {t("People")}
      </Button>
      {client.joinedAt ? (
        <Button
          variant="secondary"
          size="sm"
          icon={<RefreshIcon />}
          onClick={() => setConfirm("reissue")}
        >
          {t("New invite link")}
        </Button>
      ) : (
        <Button
          variant="secondary"
          size="sm"
          icon={<LinkIcon />}
          loading={copyInvite.isPending}
          onClick={() => copyInvite.mutate()}
        >
          {t("Copy invite link")}
        </Button>
      )}
      <ExportButton
        path={exportPaths.conversation(client.id)}
        label={t("Export")}
        ariaLabel={t("Export conversation with {{client}}", { client: client.name })}
      />
      {myRole !== "member" && (
        <Button
          variant="ghost"
          size="icon"
          className="client-header__delete"
          aria-label={t("Delete {{client}}", { client: client.name })}
          title={t("Delete client")}
          onClick={() => setConfirm("delete")}
        >
          <TrashIcon />
        </Button>
      )}

      <OnceOpened open={confirm === "assign"}>
        <AssignDialog
          client={client}
          assignees={assigned.data ?? NO_ASSIGNEES}
          team={team.data ?? []}
          open={confirm === "assign"}
          onOpenChange={(open) => !open && setConfirm(null)}
        />
      </OnceOpened>

      <OnceOpened open={confirm === "contacts"}>
        <ContactsDialog
          client={client}
          open={confirm === "contacts"}
          onOpenChange={(open) => !open && setConfirm(null)}
        />
      </OnceOpened>

      <OnceOpened open={confirm === "reissue"}>
        <ConfirmDialog
          open={confirm === "reissue"}
          onOpenChange={(open) => !open && setConfirm(null)}
          title={t("Create a new invite link?")}
          confirmLabel={t("Create new link")}
          busyLabel={t("Creating...")}
          busy={reissue.isPending}
          onConfirm={() => reissue.mutate()}
        >
          <p>
            {t(
              "{{client}} will be signed out on every device at once and will need the new link to get back into your conversation. Use this when a link reached the wrong person or a phone was lost.",
              { client: client.name },
            )}
          </p>
          <p>
            {t("Any invite link you sent {{client}} before stops working.", {
              client: client.name,
            })}
          </p>
        </ConfirmDialog>
      </OnceOpened>

      <OnceOpened open={confirm === "delete"}>
        <ConfirmDialog
          open={confirm === "delete"}
          onOpenChange={(open) => !open && setConfirm(null)}
          title={t("Delete {{client}}?", { client: client.name })}
          confirmLabel={t("Delete client")}
          busyLabel={t("Deleting...")}
          busy={remove.isPending}
          destructive
          onConfirm={() => remove.mutate()}
        >
          <p>
            {t(
              "The conversation with all its messages and files is deleted, and {{client}} loses access at once.",
              { client: client.name },
            )}
          </p>
          <RestoreWindow canRead={myRole !== undefined && myRole !== "member"} />
        </ConfirmDialog>
      </OnceOpened>
    </div>
  );
}

/**
 * How long a deleted client can be restored (issue 28), said in the delete confirmation. Asked
 * for when the confirmation first opens: the dashboard's first screen stays one request.
 */
function RestoreWindow({ canRead }: { canRead: boolean }) {
  const { data: keptDays, isPending } = useRetentionDays(canRead);
  const { t } = useTranslation("dashboard");
  if (canRead && isPending) return null;
  return (
    <p>
      {keptDays
        ? t("You can restore it from Settings → Deleted clients for {{count}} days.", {
            count: keptDays,
          })
        : t("This cannot be undone.")}
    </p>
  );
}
