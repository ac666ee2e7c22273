import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  FEEDBACK_COMMENT_MAX_LENGTH,
  formatFileSize,
  NEEDS_WORK_COMMENT_REQUIRED,
} from "../../../shared/files";
import type {
  FeedbackLinkPayload,
  UseFeedbackLinkResponse,
} from "../../../shared/schemas/feedback-links";
import { ApiError, apiGet, apiPost, serverMessage } from "../api/client";
import { fetchCurrentUser, setCurrentUser } from "../api/current-user";
import { queryKeys } from "../api/query-keys";
import { Alert } from "../ui/alert";
import { Button, buttonClassName } from "../ui/button";
import { CenteredSpinner } from "../ui/spinner";
import { BrandedPage } from "./branded-page";
import { rememberedClient } from "./remembered-client";
import { SignInLinkRequest } from "./sign-in-link-request-lazy";
import { Field } from "../ui/field";
import "./feedback-link.css";

/**
 * /client/feedback/{token}: the page an email's Approve or Needs Work button opens. Opening
 * it changes nothing (mail scanners follow links); the decision is taken only when the person
 * confirms here. Loaded on its own, so the portal's first load does not carry it.
 */
export default function FeedbackLinkPage({ token }: { token: string }) {
  const { t } = useTranslation("portal");
  const queryClient = useQueryClient();
  const link = useQuery({
    queryKey: queryKeys.feedbackLink(token),
    queryFn: () => apiGet<FeedbackLinkPayload>(`/api/feedback-links/${encodeURIComponent(token)}`),
    retry: false,
  });
  const decide = useMutation({
    mutationFn: (comment: string | null) =>
      apiPost<UseFeedbackLinkResponse>(`/api/feedback-links/${encodeURIComponent(token)}`, {
        ...(comment !== null && { comment }),
      }),
    onSuccess: async (answer) => {
      // Signed in by the link (or already): the portal knows who this browser is now.
      if (answer.signedIn) setCurrentUser(queryClient, await fetchCurrentUser().catch(() => null));
    },
    onError: (error) => {
      // Used, expired or decided meanwhile: the page shows where the link stands now.
      if (error instanceof ApiError && (error.status === 409 || error.status === 410))
        void link.refetch();
    },
  });

  if (link.isPending) return <CenteredSpinner message={t("Loading the file…")} />;
  if (link.isError) return <LinkProblem error={link.error} onRetry={() => void link.refetch()} />;

  const data = link.data;
  const lookup = { client: data.clientId };
  if (decide.isSuccess) return <Outcome data={data} answer={decide.data} />;
  if (data.state !== "open") {
    return (
      <BrandedPage lookup={lookup} title={closedTitle(data, t)} text={closedText(data, t)}>
        <FileCard data={data} />
        {data.feedbackComment && (
          <blockquote className="feedback-link__comment">
            <span className="visually-hidden">{`${t("Comment:")} `}</span>
            {data.feedbackComment}
          </blockquote>
        )}
        <ConversationLink clientId={data.clientId} />
      </BrandedPage>
    );
  }
  // A 400 on Needs Work is about the comment, and shows next to its field.
  const commentError =
    data.decision === "needs_work" &&
    decide.error instanceof ApiError &&
    decide.error.status === 400;
  const refused =
    decide.isError && !commentError
      ? serverMessage(decide.error, t("Something went wrong. Please try again."))
      : null;
  return data.decision === "approve" ? (
    <BrandedPage
      lookup={lookup}
      title={t("Approve this file?")}
      text={t("{{ownerName}} asked you to approve this file. Approving tells them it is ready.", {
        ownerName: data.ownerName,
      })}
    >
      <FileCard data={data} />
      {refused && <Alert variant="destructive" title={refused} />}
      <div className="branded-page__actions feedback-link__actions">
        <Button size="lg" loading={decide.isPending} onClick={() => decide.mutate(null)}>
          {decide.isPending ? t("Approving…") : t("Approve file")}
        </Button>
      </div>
      <ConversationLink clientId={data.clientId} label={t("Open the conversation instead")} quiet />
    </BrandedPage>
  ) : (
    <BrandedPage
      lookup={lookup}
      title={t("What needs work?")}
      text={t(
        "Tell {{ownerName}} what to change in this file. They see your comment in the conversation.",
        { ownerName: data.ownerName },
      )}
    >
      <FileCard data={data} />
      <NeedsWorkForm
        pending={decide.isPending}
        serverError={
          decide.error instanceof ApiError && decide.error.status === 400
            ? decide.error.message
            : null
        }
        refused={refused}
        onSend={(comment) => decide.mutate(comment)}
      />
      <ConversationLink clientId={data.clientId} label={t("Open the conversation instead")} quiet />
    </BrandedPage>
  );
}

function NeedsWorkForm({
  pending,
  serverError,
  refused,
  onSend,
}: {
  pending: boolean;
  serverError: string | null;
  refused: string | null;
  onSend: (comment: string) => void;
}) {
  // The errors catalog (9 KB) loads with this form, not with every page.
  const { t } = useTranslation(["portal", "errors"]);
  const field = useRef<HTMLTextAreaElement>(null);
  const [comment, setComment] = useState("");
  const [missing, setMissing] = useState(false);
  // The shared schema's text, translated with the server's messages (errors catalog).
  const error = missing ? t(NEEDS_WORK_COMMENT_REQUIRED, { ns: "errors" }) : serverError;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!comment.trim()) {
      setMissing(true);
      field.current?.focus();
      return;
    }
    onSend(comment.trim());
  };
  return (
    <form className="feedback-link__form" onSubmit={submit} noValidate>
      <Field label={t("Your comment")} error={error}>
        {(control) => (
          <textarea
            ref={field}
            {...control}
            className="feedback-link__field"
            rows={5}
            required
            maxLength={FEEDBACK_COMMENT_MAX_LENGTH}
            value={comment}
            disabled={pending}
            onChange={(event) => {
              setComment(event.target.value);
              if (event.target.value.trim()) setMissing(false);
            }}
          />
        )}
      </Field>
      {refused && <Alert variant="destructive" title={refused} />}
      <div className="branded-page__actions feedback-link__actions">
        <Button type="submit" size="lg" loading={pending}>
          {pending ? t("Sending…") : t("Send feedback")}
        </Button>
      </div>
    </form>
  );
}

function FileCard({ data }: { data: FeedbackLinkPayload }) {
  return (
    <div className="feedback-link__file">
      <span className="feedback-link__file-name">{data.fileName}</span>
      {data.fileSize !== null && (
        <span className="feedback-link__file-size">{formatFileSize(data.fileSize)}</span>
      )}
    </div>
  );
}

function Outcome({ data, answer }: { data: FeedbackLinkPayload; answer: UseFeedbackLinkResponse }) {
  const { t } = useTranslation("portal");
  const heading = useRef<HTMLDivElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const approved = answer.feedbackStatus === "approved";
  const names = { fileName: data.fileName, ownerName: data.ownerName };
  return (
    <BrandedPage
      lookup={{ client: data.clientId }}
      title={approved ? t("Approved") : t("Feedback sent")}
    >
      <div ref={heading} tabIndex={-1} className="feedback-link__outcome">
        <Alert
          variant="success"
          title={
            approved
              ? t("You approved {{fileName}}.", names)
              : t("{{fileName}} is marked Needs Work.", names)
          }
        >
          {approved
            ? t("{{ownerName}} can see it in your conversation now.", names)
            : t("{{ownerName}} can read your comment in your conversation now.", names)}
        </Alert>
      </div>
      <ConversationLink clientId={data.clientId} />
      {!answer.signedIn && (
        <p className="branded-page__help">
          {t(
            "Another account is signed in on this browser. Sign out first to open this conversation here, or open it from the email on your own device.",
          )}
        </p>
      )}
    </BrandedPage>
  );
}

function ConversationLink({
  clientId,
  label,
  quiet = false,
}: {
  clientId: string;
  label?: string;
  quiet?: boolean;
}) {
  const { t } = useTranslation("portal");
  return (
    <div className="branded-page__actions">
      <a
        className={quiet ? "feedback-link__quiet" : buttonClassName("secondary", "lg")}
        href={`/client/${encodeURIComponent(clientId)}`}
      >
        {label ?? t("Open the conversation")}
      </a>
    </div>
  );
}

function closedTitle(data: FeedbackLinkPayload, t: TFunction<"portal">): string {
  if (data.state === "used") return t("This link was already used");
  if (data.state === "expired") return t("This link has expired");
  // Everyone must approve (issue 27): this person decided, the others are still asked.
  if (data.feedbackStatus === "pending") return t("You already gave your feedback");
  return t("This file was already decided");
}

/** Whole sentences per status (a translation may need to word each differently). */
function closedText(data: FeedbackLinkPayload, t: TFunction<"portal">): string {
  const values = { ownerName: data.ownerName };
  if (data.state === "expired")
    return t(
      "Links in emails work for 7 days. You can still approve the file or say what needs work in your conversation.",
    );
  if (data.state === "decided" && data.feedbackStatus === "pending")
    return t(
      "This file still waits for the others asked to approve it. Open the conversation to see who, or to send {{ownerName}} a message.",
      values,
    );
  switch (data.feedbackStatus) {
    case "approved":
      return t(
        "This file is approved. Open the conversation to see it, or to send {{ownerName}} a message.",
        values,
      );
    case "needs_work":
      return t(
        "This file is marked Needs Work. Open the conversation to see it, or to send {{ownerName}} a message.",
        values,
      );
    case "pending":
      return t(
        "This file still waits for your decision. Open the conversation to see it, or to send {{ownerName}} a message.",
        values,
      );
  }
}

/** Unknown link (404), or the page could not load it. */
function LinkProblem({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { t } = useTranslation("portal");
  const clientId = rememberedClient();
  if (error instanceof ApiError && error.status === 404) {
    return (
      <BrandedPage
        lookup={clientId ? { client: clientId } : null}
        title={t("This link is not valid")}
        text={t(
          "It may be incomplete, or the file was removed. Your conversation has every file that waits for you.",
        )}
      >
        {clientId ? <ConversationLink clientId={clientId} /> : <SignInLinkRequest />}
      </BrandedPage>
    );
  }
  return (
    <BrandedPage
      lookup={clientId ? { client: clientId } : null}
      title={t("The file could not be loaded")}
    >
      <Alert
        variant="destructive"
        title={serverMessage(error, t("Please check your connection and try again."))}
      />
      <div className="branded-page__actions">
        <Button onClick={onRetry}>{t("Try again")}</Button>
      </div>
    </BrandedPage>
  );
}
