import { useTranslation } from "react-i18next";
import { useAccountTier } from "../billing/account-tier-query";
import { Button } from "../ui/button";
import { PlusIcon } from "../ui/icons";
import { useToast } from "../ui/toast";

interface AddClientButtonProps {
  onAddClient: () => void;
  /** At the plan's limit: the settings open so the owner sees the plan. */
  onLimitReached: () => void;
}

export function AddClientButton({ onAddClient, onLimitReached }: AddClientButtonProps) {
  const { data: tier, isPending } = useAccountTier();
  const toast = useToast();
  const { t } = useTranslation("dashboard");
  const atLimit = tier !== undefined && !tier.canCreateMore;

  const click = () => {
    if (!atLimit) {
      onAddClient();
      return;
    }
    toast({
      title: t("Client limit reached"),
      description: t("Upgrade your {{plan}} plan to add more clients", {
        plan: tier.tierConfig.name,
      }),
      variant: "destructive",
    });
    onLimitReached();
  };

  return (
    // aria-disabled rather than disabled: the button stays focusable and its click explains the limit.
    <Button
      fullWidth
      icon={<PlusIcon />}
      aria-disabled={atLimit || undefined}
      disabled={isPending}
      onClick={click}
    >
      {atLimit ? t("Add Client (Limit reached)") : t("Add Client")}
    </Button>
  );
}
