import { useQuery } from "@tanstack/react-query";
import { Trans, useTranslation } from "react-i18next";
import { queryKeys } from "../api/query-keys";
import { Icon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { type Annotation, fetchAnnotations, openMarksLabel } from "./annotations-api";
import type { FileMessage } from "./files-api";
import "./open-marks.css";

const PinIcon = () => (
  <Icon width="14" height="14">
    <path d="M12 21s-6-5.2-6-10a6 6 0 0 1 12 0c0 4.8-6 10-6 10z" />
    <circle cx="12" cy="11" r="2" />
  </Icon>
);

/**
 * "3 open marks" on a file sent for approval (issue 27): a button that opens the file, where
 * the marks are. Nothing when every mark is resolved.
 */
export function OpenMarksButton({ message, onShow }: { message: FileMessage; onShow: () => void }) {
  // The label follows the reader's language.
  useTranslation("conversation");
  const count = message.openMarks ?? 0;
  if (count === 0) return null;
  return (
    <button type="button" className="open-marks__button" onClick={onShow}>
      <PinIcon />
      {openMarksLabel(count)}
    </button>
  );
}

/**
 * The open marks of a file version, listed where a decision is made or shown (issue 27): under
 * Needs Work (what needs work, by place), and on a new version the marks carried over from the
 * one before ("Check this"). Numbered as the viewer numbers them (every mark they see, oldest
 * first).
 */
export function OpenMarksList({
  message,
  clientId,
  heading,
}: {
  message: FileMessage;
  clientId: string;
  heading: string;
}) {
  const { t } = useTranslation("conversation");
  const version = message.versionNumber ?? 1;
  const count = message.openMarks ?? 0;
  const { data, isPending, isError } = useQuery({
    queryKey: queryKeys.annotations(clientId, message.id, version),
    queryFn: () => fetchAnnotations(message.id, version),
    enabled: count > 0,
  });
  if (count === 0) return null;
  if (isPending) return <Spinner size="sm" label={t("Loading marks")} />;
  if (isError) return <p className="open-marks__error">{t("The marks couldn't be loaded.")}</p>;
  const numbered = data.map((mark, index) => ({ mark, number: index + 1 }));
  const open = numbered.filter(({ mark }) => !mark.resolved);
  if (open.length === 0) return null;
  return (
    <section
      className="open-marks"
      aria-label={t("{{heading}}: {{marks}}", {
        heading,
        marks: openMarksLabel(open.length),
      })}
    >
      <h4 className="open-marks__heading">{heading}</h4>
      <ol className="open-marks__list">
        {open.map(({ mark, number }) => (
          <OpenMarkItem key={mark.id} mark={mark} number={number} />
        ))}
      </ol>
    </section>
  );
}

function OpenMarkItem({ mark, number }: { mark: Annotation; number: number }) {
  const { t } = useTranslation("conversation");
  return (
    <li className="open-marks__item">
      <span className="open-marks__number" aria-hidden="true">
        {number}
      </span>
      <span className="open-marks__body">
        <span className="open-marks__place">
          <Trans
            t={t}
            i18nKey="<0>Mark {{number}}, </0>Page {{page}}"
            values={{ number, page: mark.page }}
            components={[<span key="mark" className="visually-hidden" />]}
          />
          {mark.carriedFromId && <span className="open-marks__tag">{t("Check this")}</span>}
          {mark.visibility === "internal" && (
            <span className="open-marks__tag open-marks__tag--internal">{t("Team only")}</span>
          )}
        </span>
        <span className="open-marks__comment">{mark.comment}</span>
        <span className="open-marks__author">{mark.author.name}</span>
      </span>
    </li>
  );
}
