import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { ownerNameForClient } from "../../../shared/owner-name";
import { serverMessage } from "../api/client";
import { logout, type User } from "../api/current-user";
import { Button } from "../ui/button";
import { LogoutIcon, SearchIcon } from "../ui/icons";
import { Avatar } from "../ui/avatar";
import { StrongText } from "../ui/strong-text";
import { BrandMark } from "./brand-mark";
import { useToast } from "../ui/toast";
import type { PortalClient } from "./portal-client-query";
import { navigate } from "./portal-location";

/** Agency owners brand the portal with their logo (or company name); others show ClientDesk. */
function OwnerBrand({ owner }: { owner: PortalClient["owner"] }) {
  const agency = owner.accountTier === "agency";
  return (
    <BrandMark
      logo={agency ? owner.companyLogo : null}
      companyName={agency ? owner.companyName : null}
    />
  );
}

interface PortalHeaderProps {
  user: User;
  client: PortalClient;
  /** Opens the search dialog. */
  onSearch: () => void;
}

export function PortalHeader({ user, client, onSearch }: PortalHeaderProps) {
  const { t } = useTranslation("portal");
  const queryClient = useQueryClient();
  const toast = useToast();
  const ownerName = ownerNameForClient(client.owner);
  const signOut = useMutation({
    mutationFn: () => logout(queryClient),
    // Clients have no password: the portal's own page offers a sign-in link by email.
    onSuccess: () => navigate("/client/signed-out", { replace: true }),
    onError: (error) =>
      toast({
        title: t("Logout failed"),
        description: serverMessage(error, t("Unknown error occurred")),
        variant: "destructive",
      }),
  });

  return (
    <header className="portal-header">
      <div className="portal-header__brand">
        <OwnerBrand owner={client.owner} />
      </div>
      <div className="portal-header__contact">
        <Avatar name={ownerName} imageUrl={client.owner.profilePicture} size={36} />
        <p className="portal-header__contact-text">
          <span className="portal-header__contact-label">{t("Your contact")}</span>
          <span className="portal-header__contact-name">{ownerName}</span>
        </p>
      </div>
      <p className="portal-header__welcome">
        <StrongText text={t("Welcome, <strong>{{name}}</strong>", { name: user.fullName })} />
      </p>
      <Button
        variant="ghost"
        size="icon"
        className="portal-header__search"
        aria-label={t("Search messages")}
        title={t("Search messages")}
        onClick={onSearch}
      >
        <SearchIcon />
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="portal-header__logout"
        icon={<LogoutIcon />}
        loading={signOut.isPending}
        onClick={() => signOut.mutate()}
      >
        {t("Log out")}
      </Button>
    </header>
  );
}
