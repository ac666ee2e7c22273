import { useTranslation } from "react-i18next";
import { useMyTeamRole } from "../api/team-members";
import { Dialog } from "../ui/dialog";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../ui/tabs";
import { AccountTab } from "./account-tab";
import { DeletedClientsTab } from "./deleted-clients-tab";
import { NotificationsTab } from "./notifications-tab";
import { PasswordTab } from "./password-tab";
import { ProfileTab } from "./profile-tab";
import { SavedRepliesTab } from "./saved-replies-tab";
import { TeamTab } from "./team-tab";
import "./settings.css";

export type SettingsTab =
  | "profile"
  | "account"
  | "notifications"
  | "password"
  | "team"
  | "replies"
  | "deleted-clients";

interface AccountSettingsDialogProps {
  /** The open tab; null when the dialog is closed. */
  tab: SettingsTab | null;
  onTabChange: (tab: SettingsTab) => void;
  onClose: () => void;
}

export function AccountSettingsDialog({ tab, onTabChange, onClose }: AccountSettingsDialogProps) {
  const { t } = useTranslation("settings");
  // Deleted clients (issue 28): the workspace's owner and admins, who delete clients.
  const role = useMyTeamRole();
  const managesClients = role === "owner" || role === "admin";
  // A member sent to Deleted clients (a link) sees their profile instead.
  const shown = tab === "deleted-clients" && role === "member" ? "profile" : tab;
  return (
    <Dialog
      open={tab !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t("Account Settings")}
      description={t("Manage your profile, plan, notifications, password, team and saved replies.")}
      width="wide"
    >
      <Tabs value={shown ?? "profile"} onValueChange={(value) => onTabChange(value as SettingsTab)}>
        <TabsList aria-label={t("Settings sections")} className="settings-tabs-list">
          <TabsTrigger value="profile">{t("Profile")}</TabsTrigger>
          <TabsTrigger value="account">{t("Account")}</TabsTrigger>
          <TabsTrigger value="notifications">{t("Notifications")}</TabsTrigger>
          <TabsTrigger value="password">{t("Password")}</TabsTrigger>
          {/* After the spec's four tabs (issue 26): their places do not move. */}
          <TabsTrigger value="team">{t("Team")}</TabsTrigger>
          <TabsTrigger value="replies">{t("Saved replies")}</TabsTrigger>
          {managesClients && (
            <TabsTrigger value="deleted-clients">{t("Deleted clients")}</TabsTrigger>
          )}
        </TabsList>
        <TabsContent value="profile">
          <ProfileTab />
        </TabsContent>
        <TabsContent value="account">
          <AccountTab />
        </TabsContent>
        <TabsContent value="team">
          <TeamTab />
        </TabsContent>
        <TabsContent value="replies">
          <SavedRepliesTab />
        </TabsContent>
        <TabsContent value="notifications">
          <NotificationsTab />
        </TabsContent>
        <TabsContent value="password">
          <PasswordTab />
        </TabsContent>
        {managesClients && (
          <TabsContent value="deleted-clients">
            <DeletedClientsTab />
          </TabsContent>
        )}
      </Tabs>
    </Dialog>
  );
}
