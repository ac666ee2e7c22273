import type { InvitedRole } from "../../shared/schemas/team";
import { renderMail } from "./layout";
import type { MailMessage } from "./mail-message";

const ROLE_WORDS: Record<InvitedRole, string> = {
  admin: "an admin (every client and the team)",
  member: "a member (the clients assigned to you)",
};

/** An invitation to join a workspace's team: ClientDesk's own look, not the agency's. */
export function teamInviteMail(
  to: string,
  details: { inviterName: string; workspaceName: string; role: InvitedRole; url: string },
): MailMessage {
  const { inviterName, workspaceName } = details;
  return {
    to,
    subject: `${inviterName} invited you to ${workspaceName} on ClientDesk`,
    devHint: `team invite link ${details.url}`,
    ...renderMail({
      heading: `Join ${workspaceName} on ClientDesk`,
      paragraphs: [
        `${inviterName} invited you to work with the ${workspaceName} team on ClientDesk as ${ROLE_WORDS[details.role]}.`,
        "Open the link below, then create your account or sign in with this address. The link works once and expires in 7 days.",
      ],
      action: { label: `Join ${workspaceName}`, url: details.url },
      footer: `You received this because ${inviterName} invited this address to their team. If you do not know them, ignore this email.`,
    }),
  };
}
