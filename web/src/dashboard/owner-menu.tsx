import { useMutation, useQueryClient } from "@tanstack/react-query";
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
  const signOut = useMutation({
    mutationFn: () => logout(queryClient),
    onSuccess: () => navigate("/auth", { replace: true }),
    onError: (error) =>
      toast({
        title: "Logout failed",
        description: serverMessage(error, "Unknown error occurred"),
        variant: "destructive",
      }),
  });
  if (!user) return null;

  return (
    <div className="owner-menu">
      <Avatar name={user.fullName} imageUrl={user.profilePicture} />
      <div className="owner-menu__who">
        <p className="owner-menu__name">{user.fullName}</p>
        <p className="owner-menu__email">{user.email}</p>
      </div>
      <Button
        variant="ghost"
        size="icon"
        aria-label="Log out"
        title="Log out"
        loading={signOut.isPending}
        onClick={() => signOut.mutate()}
      >
        {!signOut.isPending && <LogoutIcon />}
      </Button>
    </div>
  );
}
