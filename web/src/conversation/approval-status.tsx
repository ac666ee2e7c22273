import { useTranslation } from "react-i18next";
import type { ApprovalPayload } from "../../../shared/schemas/message-payload";
import { apiUrl } from "../api/client";
import { useCurrentUser } from "../api/current-user";
import { i18n } from "../i18n/i18n";
import { DownloadIcon } from "../ui/notice-icons";
import type { FileMessage } from "./files-api";
import { asksViewer } from "./pending-files";
import "./approvals.css";

const names = (people: ApprovalPayload[]) => people.map((person) => person.name).join(", ");

/** Whether the viewer (a client-side person) still has to decide on this file. */
export function useAskedToDecide(message: FileMessage): boolean {
  const { data: user } = useCurrentUser();
  return asksViewer(message, user?.id);
}

/**
 * Each group once: "Approved by Dora Director · Waiting for Carla Client". The viewer is "you":
 * "Approved by Dora Director · Waiting for you", "You approved · waiting for Carla Client",
 * "You and Dora Director approved".
 */
function groupLine(people: ApprovalPayload[], viewerId: string | undefined): string {
  const own = people.find((person) => person.userId === viewerId);
  const decided = own && own.status !== "pending" ? own : undefined;
  const others = people.filter((person) => person !== decided);
  const named = (group: ApprovalPayload[]) =>
    group
      .map((person) => (person === own ? i18n.t("you", { ns: "conversation" }) : person.name))
      .join(", ");
  const approved = others.filter((person) => person.status === "approved");
  const sentBack = others.filter((person) => person.status === "needs_work");
  const waiting = others.filter((person) => person.status === "pending");
  if (!decided)
    return [
      approved.length > 0 &&
        i18n.t("Approved by {{names}}", { ns: "conversation", names: named(approved) }),
      sentBack.length > 0 &&
        i18n.t("Needs Work from {{names}}", { ns: "conversation", names: named(sentBack) }),
      waiting.length > 0 &&
        i18n.t("Waiting for {{names}}", { ns: "conversation", names: named(waiting) }),
    ]
      .filter(Boolean)
      .join(" · ");
  const mine =
    decided.status === "needs_work"
      ? i18n.t("You said it needs work", { ns: "conversation" })
      : approved.length > 0
        ? i18n.t("You and {{names}} approved", { ns: "conversation", names: named(approved) })
        : i18n.t("You approved", { ns: "conversation" });
  // "You approved · waiting for Carla Client": the rest continues the sentence.
  return [
    mine,
    decided.status !== "approved" &&
      approved.length > 0 &&
      i18n.t("approved by {{names}}", { ns: "conversation", names: named(approved) }),
    sentBack.length > 0 &&
      i18n.t("needs Work from {{names}}", { ns: "conversation", names: named(sentBack) }),
    waiting.length > 0 &&
      i18n.t("waiting for {{names}}", { ns: "conversation", names: named(waiting) }),
  ]
    .filter(Boolean)
    .join(" · ");
}

/**
 * A file that everyone asked must approve (issue 27): who is asked, and each person's
 * decision with their comment. The viewer is "You" among the client's people.
 */
export function ApprovalSummary({ message }: { message: FileMessage }) {
  const { t } = useTranslation("conversation");
  const { data: user } = useCurrentUser();
  const people = message.approvals ?? [];
  if (people.length === 0) return null;
  const commented = people.filter((person) => person.comment);
  return (
    <div className="approvals">
      {message.feedbackStatus === "pending" && (
        <p className="approvals__asked">
          {t("Everyone must approve: {{names}}", { names: names(people) })}
        </p>
      )}
      <p className="approvals__line">{groupLine(people, user?.id)}</p>
      {commented.map((person) => (
        <blockquote key={person.userId} className="file-message__comment">
          <span className="approvals__by">{t("{{name}}:", { name: person.name })} </span>
          {person.comment}
        </blockquote>
      ))}
    </div>
  );
}

/** The approved version's one-page PDF record, for either side (server: approval-record). */
export function ApprovalRecordLink({ message }: { message: FileMessage }) {
  const { t } = useTranslation("conversation");
  const version = message.versionNumber ?? 1;
  return (
    <a
      className="file-message__download approvals__record"
      href={apiUrl(`/api/messages/${encodeURIComponent(message.id)}/approval-record`)}
      download
      aria-label={
        message.fileName
          ? t("Approval record of {{file}}, version {{version}} (PDF)", {
              file: message.fileName,
              version,
            })
          : t("Approval record of the file, version {{version}} (PDF)", { version })
      }
    >
      <DownloadIcon />
      <span>{t("Approval record")}</span>
    </a>
  );
}
