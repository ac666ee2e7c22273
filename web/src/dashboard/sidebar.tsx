import type { SettingsTab } from "../settings/account-settings-dialog";
import { Button } from "../ui/button";
import { SettingsIcon } from "../ui/icons";
import { Logo } from "../ui/logo";
import { AddClientButton } from "./add-client-button";
import { ClientList } from "./client-list";
import { OwnerMenu } from "./owner-menu";
import { PlanBox } from "./plan-box";

interface SidebarProps {
  selectedClientId: string | null;
  onOpenSettings: (tab: SettingsTab) => void;
  onAddClient: () => void;
}

export function Sidebar({ selectedClientId, onOpenSettings, onAddClient }: SidebarProps) {
  return (
    <aside className="sidebar" aria-label="Clients and account">
      <div className="sidebar__top">
        <Logo />
        <Button
          variant="ghost"
          size="icon"
          aria-label="Account settings"
          title="Account settings"
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
      <ClientList selectedId={selectedClientId} />
      <div className="sidebar__bottom">
        <PlanBox />
        <OwnerMenu />
      </div>
    </aside>
  );
}
