import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { serverMessage } from "../api/client";
import { logout, useCurrentUser } from "../api/current-user";
import { Avatar } from "../ui/avatar";
import { Button } from "../ui/button";
import { LogoutIcon } from "../ui/icons";
import { useToast } from "../ui/toast";

/** The signed-in owner's name and picture, with the logout control. */
export function OwnerMenu() {
  const { data: user } = useCurrentUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useTranslation("dashboard");
  const signOut = useMutation({
    mutationFn: () => logout(queryClient),
    onSuccess: () => navigate("/auth", { replace: true }),
    onError: (error) =>
      toast({
        title: t("Logout failed"),
        description: serverMessage(error, t("Unknown error occurred")),
        variant: "destructive",
      }),
  });
  if (!user) return null;

  return (
    <div className="owner-menu">
      <Avatar name={user.fullName} imageUrl={user.profilePicture} />
      <div className="owner-menu__who">
        <p className="owner-menu__name" title={user.fullName}>
          {user.fullName}
        </p>
        <p className="owner-menu__email" title={user.email}>
          {user.email}
        </p>
      </div>
      <Button
        variant="ghost"
        size="icon"
        className="owner-menu__logout"
        aria-label={t("Log out")}
        title={t("Log out")}
        loading={signOut.isPending}
        onClick={() => signOut.mutate()}
      >
        {!signOut.isPending && <LogoutIcon />}
      </Button>
    </div>
  );
}
