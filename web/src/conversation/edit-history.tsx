import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { queryKeys } from "../api/query-keys";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Spinner } from "../ui/spinner";
import { formatFull } from "./format-time";
import { fetchMessageEdits } from "./message-changes-api";
import type { Message } from "./messages-query";

interface EditHistoryProps {
  message: Message;
  clientId: string;
}

/**
 * "Edited" on a changed message, to the workspace's staff (issue 28): a button that opens the
 * texts it had before, oldest first, each with who replaced it and when.
 */
export default function EditHistory({ message, clientId }: EditHistoryProps) {
  const { t } = useTranslation("conversation");
  const [open, setOpen] = useState(false);
  const edits = useQuery({
    queryKey: queryKeys.messageEdits(clientId, message.id),
    queryFn: () => fetchMessageEdits(message.id),
    enabled: open,
  });
  return (
    <>
      <button
        type="button"
        className="message__edited message__edited--button"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {t("Edited")}
      </button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={t("Edit history")}
        description={t("What this message said before it was edited. Only your team sees this.")}
      >
        {edits.isPending && <Spinner label={t("Loading previous texts")} />}
        {edits.isError && (
          <div className="edit-history__error" role="alert">
            <p>{t("We couldn't load the previous texts.")}</p>
            <Button variant="secondary" size="sm" onClick={() => void edits.refetch()}>
              {t("Try again")}
            </Button>
          </div>
        )}
        {edits.data && (
          <ol className="edit-history">
            <li className="edit-history__entry">
              <p className="edit-history__label">{t("Now")}</p>
              <p className="edit-history__text" dir="auto">
                {message.content}
              </p>
            </li>
            {[...edits.data.edits].reverse().map((edit) => (
              <li key={edit.editedAt} className="edit-history__entry">
                <p className="edit-history__label">
                  {edit.editorName ? (
                    <Trans
                      t={t}
                      i18nKey="Earlier text, replaced by {{name}} on <0>{{date}}</0>"
                      values={{ name: edit.editorName, date: formatFull(edit.editedAt) }}
                      components={[<time key="date" dateTime={edit.editedAt} />]}
                    />
                  ) : (
                    <Trans
                      t={t}
                      i18nKey="Earlier text, replaced on <0>{{date}}</0>"
                      values={{ date: formatFull(edit.editedAt) }}
                      components={[<time key="date" dateTime={edit.editedAt} />]}
                    />
                  )}
                </p>
                <p className="edit-history__text edit-history__text--old" dir="auto">
                  {edit.content}
                </p>
              </li>
            ))}
          </ol>
        )}
      </Dialog>
    </>
  );
}
