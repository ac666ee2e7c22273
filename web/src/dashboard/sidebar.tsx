import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { MessageSearch } from "../search/message-search";
import type { SettingsTab } from "../settings/account-settings-dialog";
import { Button } from "../ui/button";
import { SettingsIcon } from "../ui/icons";
import { Logo } from "../ui/logo";
import { AddClientButton } from "./add-client-button";
import { ClientList, messagePath, OPENED_FROM_LIST } from "./client-list";
import { OwnerMenu } from "./owner-menu";
import { PlanBox } from "./plan-box";

interface SidebarProps {
  selectedClientId: string | null;
  onOpenSettings: (tab: SettingsTab) => void;
  onAddClient: () => void;
}

export function Sidebar({ selectedClientId, onOpenSettings, onAddClient }: SidebarProps) {
  const navigate = useNavigate();
  const { t } = useTranslation("dashboard");
  return (
    <aside className="sidebar" aria-label={t("Clients and account")}>
      <div className="sidebar__top">
        <Logo />
        <Button
          variant="ghost"
          size="icon"
          aria-label={t("Account settings")}
          title={t("Account settings")}
          onClick={() => onOpenSettings("profile")}
        >
          <SettingsIcon />
        </Button>
      </div>
      <div className="sidebar__add">
        <AddClientButton
          onAddClient={onAddClient}
          onLimitReached={() => onOpenSettings("account")}
        />
      </div>
      {/* While words are typed, the results take the client list's place. */}
      <MessageSearch
        showClientName
        onOpen={(result) =>
          navigate(messagePath(result.clientId, result.messageId), { state: OPENED_FROM_LIST })
        }
      >
        <ClientList selectedId={selectedClientId} />
      </MessageSearch>
      <div className="sidebar__bottom">
        <PlanBox />
        <OwnerMenu />
      </div>
    </aside>
  );
}
