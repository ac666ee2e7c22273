import type { Language } from "../../shared/i18n/languages";
import type { InvitedRole } from "../../shared/schemas/team";
import { type Translate, translatorFor } from "../i18n/translator";
import { renderMail } from "./layout";
import type { MailMessage } from "./mail-message";

/** The invitation's sentence for each role (whole sentences: the role changes its grammar). */
function invitedSentence(t: Translate, role: InvitedRole, names: Record<string, string>): string {
  return role === "admin"
    ? t(
        "{{inviterName}} invited you to work with the {{workspaceName}} team on ClientDesk as an admin (every client and the team).",
        names,
      )
    : t(
        "{{inviterName}} invited you to work with the {{workspaceName}} team on ClientDesk as a member (the clients assigned to you).",
        names,
      );
}

/** An invitation to join a workspace's team: ClientDesk's own look, not the agency's. */
export function teamInviteMail(
  to: string,
  details: {
    /** The workspace's language: the invitee is not a user yet. */
    language: Language;
    inviterName: string;
    workspaceName: string;
    role: InvitedRole;
    url: string;
  },
): MailMessage {
  const t = translatorFor(details.language, "emails");
  const { inviterName, workspaceName } = details;
  return {
    to,
    subject: t("{{inviterName}} invited you to {{workspaceName}} on ClientDesk", {
      inviterName,
      workspaceName,
    }),
    devHint: `team invite link ${details.url}`,
    ...renderMail({
      heading: t("Join {{workspaceName}} on ClientDesk", { workspaceName }),
      paragraphs: [
        invitedSentence(t, details.role, { inviterName, workspaceName }),
        t(
          "Open the link below, then create your account or sign in with this address. The link works once and expires in 7 days.",
        ),
      ],
      action: { label: t("Join {{workspaceName}}", { workspaceName }), url: details.url },
      footer: t(
        "You received this because {{inviterName}} invited this address to their team. If you do not know them, ignore this email.",
        { inviterName },
      ),
    }),
  };
}
