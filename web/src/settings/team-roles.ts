import { useTranslation } from "react-i18next";
import type { InvitedRole, TeamRole } from "../../../shared/schemas/team";

/** Each role's name in the reader's language. */
export function useRoleLabels(): Record<TeamRole, string> {
  const { t } = useTranslation("settings");
  return { owner: t("Owner"), admin: t("Admin"), member: t("Member") };
}

/** What each role one can give lets a person see and do. */
export function useRoleHints(): Record<InvitedRole, string> {
  const { t } = useTranslation("settings");
  return {
    admin: t("Admin: every client and the team."),
    member: t("Member: only the clients assigned to them."),
  };
}
