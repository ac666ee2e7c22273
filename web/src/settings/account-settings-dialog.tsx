import { Dialog } from "../ui/dialog";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../ui/tabs";
import { AccountTab } from "./account-tab";
import { NotificationsTab } from "./notifications-tab";
import { PasswordTab } from "./password-tab";
import { ProfileTab } from "./profile-tab";
import "./settings.css";

export type SettingsTab = "profile" | "account" | "notifications" | "password";

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
      description="Manage your profile, plan, notifications and password."
      width="wide"
    >
      <Tabs value={tab ?? "profile"} onValueChange={(value) => onTabChange(value as SettingsTab)}>
        <TabsList aria-label="Settings sections" className="settings-tabs-list">
          <TabsTrigger value="profile">Profile</TabsTrigger>
          <TabsTrigger value="account">Account</TabsTrigger>
          <TabsTrigger value="notifications">Notifications</TabsTrigger>
          <TabsTrigger value="password">Password</TabsTrigger>
        </TabsList>
        <TabsContent value="profile">
          <ProfileTab />
        </TabsContent>
        <TabsContent value="account">
          <AccountTab />
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
