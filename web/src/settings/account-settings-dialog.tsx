import { Dialog } from "../ui/dialog";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../ui/tabs";
import { AccountTab } from "./account-tab";
import { NotificationsTab } from "./notifications-tab";
import { PasswordTab } from "./password-tab";
import { ProfileTab } from "./profile-tab";
import { TeamTab } from "./team-tab";
import "./settings.css";

export type SettingsTab = "profile" | "account" | "notifications" | "password" | "team";

interface AccountSettingsDialogProps {
  /** The open tab; null when the dialog is closed. */
  tab: SettingsTab | null;
  onTabChange: (tab: SettingsTab) => void;
  onClose: () => void;
}

export function AccountSettingsDialog({ tab, onTabChange, onClose }: AccountSettingsDialogProps) {
  return (
    <Dialog
      open={tab !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Account Settings"
      description="Manage your profile, plan, notifications, password and team."
      width="wide"
    >
      <Tabs value={tab ?? "profile"} onValueChange={(value) => onTabChange(value as SettingsTab)}>
        <TabsList aria-label="Settings sections" className="settings-tabs-list">
          <TabsTrigger value="profile">Profile</TabsTrigger>
          <TabsTrigger value="account">Account</TabsTrigger>
          <TabsTrigger value="notifications">Notifications</TabsTrigger>
          <TabsTrigger value="password">Password</TabsTrigger>
          {/* After the spec's four tabs (issue 26): their places do not move. */}
          <TabsTrigger value="team">Team</TabsTrigger>
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
        <TabsContent value="notifications">
          <NotificationsTab />
        </TabsContent>
        <TabsContent value="password">
          <PasswordTab />
        </TabsContent>
      </Tabs>
    </Dialog>
  );
}
