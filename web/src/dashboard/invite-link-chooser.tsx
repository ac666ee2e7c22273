import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useCurrentUser } from "../api/current-user";
import { Button } from "../ui/button";
import { copyText } from "../ui/clipboard";
import { Dialog, DialogClose, DialogFooter } from "../ui/dialog";
import { CopyIcon } from "../ui/icons";
import { Input } from "../ui/input";
import { useToast } from "../ui/toast";

/** The links an owner can send a client: the tiny one exists on paid plans only. */
export interface InviteLinks {
  clientName: string;
  standardUrl: string;
  tinyUrl: string | null;
}

interface InviteLinkChooserProps {
  links: InviteLinks | null;
  onClose: () => void;
}

/** The invite link chooser (spec section 2): tiny link or standard link, each with its copy notice. */
export function InviteLinkChooser({ links, onClose }: InviteLinkChooserProps) {
  const { data: user } = useCurrentUser();
  const { t } = useTranslation("dashboard");
  return (
    <Dialog
      open={links !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t("Share the invite link")}
      description={
        links
          ? t(
              "Send {{client}} one of these links. It opens your private conversation and works once.",
              { client: links.clientName },
            )
          : undefined
      }
    >
      {links && (
        <div className="invite-links">
          {links.tinyUrl && (
            <LinkOption
              label={t("Tiny link")}
              copyLabel={t("Copy tiny link")}
              hint={t("Short and easy to type or send by text message.")}
              url={links.tinyUrl}
              copiedNotice={t("Tiny link copied!")}
            />
          )}
          <LinkOption
            label={t("Standard link")}
            copyLabel={t("Copy standard link")}
            hint={
              links.tinyUrl
                ? t("The full link, for email.")
                : t("Send it by email or any messenger.")
            }
            url={links.standardUrl}
            copiedNotice={t("Standard link copied!")}
          />
          {!links.tinyUrl && user?.accountTier === "free" && (
            <p className="invite-links__note">
              {t("Tiny links come with the Pro and Agency plans.")}
            </p>
          )}
        </div>
      )}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">{t("Done")}</Button>
        </DialogClose>
      </DialogFooter>
    </Dialog>
  );
}

interface LinkOptionProps {
  label: string;
  /** The copy button's name for a screen reader ("Copy tiny link"). */
  copyLabel: string;
  hint: string;
  url: string;
  copiedNotice: string;
}

function LinkOption({ label, copyLabel, hint, url, copiedNotice }: LinkOptionProps) {
  const id = useId();
  const toast = useToast();
  const { t } = useTranslation("dashboard");
  const copy = async () => {
    if (await copyText(url)) {
      toast({ title: copiedNotice, variant: "success" });
    } else {
      toast({
        title: t("Couldn't copy the link"),
        description: t("Select the link and copy it yourself."),
        variant: "destructive",
      });
    }
  };
  return (
    <div className="invite-links__option">
      <div className="invite-links__head">
        <label className="invite-links__label" htmlFor={id}>
          {label}
        </label>
        <p className="invite-links__hint" id={`${id}-hint`}>
          {hint}
        </p>
      </div>
      <div className="invite-links__row">
        <Input
          id={id}
          className="invite-links__url"
          readOnly
          value={url}
          aria-describedby={`${id}-hint`}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button icon={<CopyIcon />} onClick={() => void copy()} aria-label={copyLabel}>
          {t("Copy")}
        </Button>
      </div>
    </div>
  );
}
