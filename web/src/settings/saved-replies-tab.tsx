import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { SAVED_REPLY_VARIABLES } from "../../../shared/saved-reply-variables";
import { serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { deleteSavedReply, type SavedReply, useSavedReplies } from "../api/saved-replies";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Spinner } from "../ui/spinner";
import { useToast } from "../ui/toast";
import { SavedReplyForm } from "./saved-reply-form";
import { useVariableTexts } from "./saved-reply-variable-texts";
import "./saved-replies.css";

/**
 * The workspace's saved replies (issue 28): every staff member sees and adds them; who wrote
 * one, the owner and admins edit and delete it (the answer's `canChange`).
 */
export function SavedRepliesTab() {
  const { t } = useTranslation("settings");
  const replies = useSavedReplies();
  /** The form: a new reply ("new"), a reply's id, or closed. */
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<SavedReply | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  /** Where the focus goes back to when the form closes (the button that opened it). */
  const opener = useRef<HTMLElement | null>(null);
  const queryClient = useQueryClient();
  const toast = useToast();

  const open = (which: string) => {
    opener.current = document.activeElement as HTMLElement | null;
    setEditing(which);
  };
  const close = () => {
    setEditing(null);
    requestAnimationFrame(() =>
      (opener.current?.isConnected ? opener.current : newButton.current)?.focus(),
    );
  };

  const remove = useMutation({
    mutationFn: (reply: SavedReply) => deleteSavedReply(reply.id),
    onSuccess: (_answer, reply) => {
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: queryKeys.savedReplies });
      toast({ title: t("Saved reply deleted"), description: reply.title, variant: "success" });
      requestAnimationFrame(() => newButton.current?.focus());
    },
    onError: (error) =>
      toast({
        title: t("Could not delete the saved reply"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  return (
    <div className="settings-section-list">
      <section className="settings-section" aria-labelledby="saved-replies-title">
        <div className="settings-section__header">
          <div>
            <h3 id="saved-replies-title" className="settings-section__title">
              {t("Saved replies")}
            </h3>
            <p className="settings-section__hint">
              {t("Answers your team gives often. In a conversation, type / to insert one.")}
            </p>
          </div>
          {editing !== "new" && (
            <Button ref={newButton} size="sm" onClick={() => open("new")}>
              {t("New saved reply")}
            </Button>
          )}
        </div>
        {editing === "new" && <SavedReplyForm onDone={close} />}
        {replies.isPending ? (
          <div className="team-members__loading">
            <Spinner size="sm" label="" />
            <span>{t("Loading saved replies…")}</span>
          </div>
        ) : replies.isError ? (
          <Alert variant="destructive" title={t("Could not load your saved replies")}>
            <Button variant="secondary" size="sm" onClick={() => void replies.refetch()}>
              {t("Try again")}
            </Button>
          </Alert>
        ) : replies.data.length === 0 ? (
          editing !== "new" && <EmptySavedReplies />
        ) : (
          <ul className="saved-replies" aria-label={t("Saved replies")}>
            {replies.data.map((reply) =>
              editing === reply.id ? (
                <li key={reply.id} className="saved-replies__row">
                  <SavedReplyForm reply={reply} onDone={close} />
                </li>
              ) : (
                <li key={reply.id} className="saved-replies__row">
                  <div className="saved-replies__what">
                    <span className="saved-replies__title">{reply.title}</span>
                    <span className="saved-replies__text">{reply.text}</span>
                    {reply.createdByName && (
                      <span className="saved-replies__by">
                        {t("by {{name}}", { name: reply.createdByName })}
                      </span>
                    )}
                  </div>
                  {reply.canChange && (
                    <div className="saved-replies__actions">
                      <Button
                        variant="secondary"
                        size="sm"
                        aria-label={t("Edit {{title}}", { title: reply.title })}
                        onClick={() => open(reply.id)}
                      >
                        {t("Edit")}
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-label={t("Delete {{title}}", { title: reply.title })}
                        onClick={() => setDeleting(reply)}
                      >
                        {t("Delete")}
                      </Button>
                    </div>
                  )}
                </li>
              ),
            )}
          </ul>
        )}
      </section>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && setDeleting(null)}
        title={t("Delete this saved reply?")}
        confirmLabel={t("Delete")}
        busyLabel={t("Deleting…")}
        busy={remove.isPending}
        destructive
        onConfirm={() => deleting && remove.mutate(deleting)}
      >
        {t(
          "“{{title}}” will no longer be offered to anyone in your team. Messages already sent with it stay as they are.",
          { title: deleting?.title ?? "" },
        )}
      </ConfirmDialog>
    </div>
  );
}

/** No replies yet: what they are for and the variables they may hold. */
function EmptySavedReplies() {
  const { t } = useTranslation("settings");
  const variableTexts = useVariableTexts();
  return (
    <div className="saved-replies__empty">
      <p className="saved-replies__empty-title">{t("No saved replies yet")}</p>
      <p>
        <Trans
          t={t}
          i18nKey="Keep the answers you give every week, then type <0>/</0> in a conversation to insert one. These variables are filled in for each conversation:"
          components={[<kbd key="slash" />]}
        />
      </p>
      <dl className="saved-replies__variables">
        {SAVED_REPLY_VARIABLES.map((variable) => (
          <div key={variable.name}>
            <dt>
              <code>{`{${variable.name}}`}</code>
            </dt>
            <dd>{variableTexts[variable.name].meaning}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
