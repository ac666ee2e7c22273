import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { queryKeys } from "../api/query-keys";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { Spinner } from "../ui/spinner";
import { CompareImages } from "./compare-images";
import {
  ComparePane,
  ComparePanes,
  type ComparedVersion,
  comparedVersion,
  StillVersion,
} from "./compare-panes";
import { fileNameOf } from "./file-name";
import { type FileMessage, type FileVersion, fetchVersions } from "./files-api";
import { PreviewFailed } from "./preview-failed";
import "./files.css";
import "./compare-versions.css";

export interface CompareVersionsProps {
  /** The file's latest version (GET /api/messages/{id}/versions takes any of the thread). */
  message: FileMessage;
  clientId: string;
  onClose: () => void;
}

/** pdf.js comes with the first PDF compared; a chunk that cannot be fetched offers the files. */
const ComparePdfPages = lazy(() =>
  import("./compare-pdf-pages").catch(() => ({
    default: ({ first }: { first: ComparedVersion; second: ComparedVersion }) => (
      <PreviewFailed url={first.url} fileName={first.fileName} />
    ),
  })),
);

/**
 * Two versions of a file sent for approval, chosen from its history (by default the latest
 * and the one before): images side by side or with a swipe divider, PDFs page by page,
 * anything else side by side as far as it can be shown.
 */
export default function CompareVersionsDialog({
  message,
  clientId,
  onClose,
}: CompareVersionsProps) {
  const { t } = useTranslation("conversation");
  const messageId = message.id;
  // The history's own query: the conversation's events refresh it (a new version appears).
  const { data, isPending, isError } = useQuery({
    queryKey: queryKeys.versions(clientId, messageId),
    queryFn: () => fetchVersions(messageId),
  });
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t("Compare versions of {{file}}", { file: fileNameOf(message) })}
      width="wide"
      className="file-preview-dialog file-preview-dialog--fill compare-dialog"
    >
      {isPending && <Spinner label={t("Loading the versions")} />}
      {isError && <p className="file-history__error">{t("The versions couldn't be loaded.")}</p>}
      {data && data.length < 2 && (
        <p className="compare-dialog__note">{t("This file has only one version so far.")}</p>
      )}
      {data && data.length >= 2 && <Comparison versions={data} />}
    </Dialog>
  );
}

const numberOf = (entry: FileVersion) => entry.versionNumber ?? 1;

function Comparison({ versions }: { versions: FileVersion[] }) {
  const { t } = useTranslation("conversation");
  const numbers = versions.map(numberOf);
  const [chosen, setChosen] = useState<[number, number]>(() => [
    numbers.at(-2) ?? 1,
    numbers.at(-1) ?? 1,
  ]);
  const [first, second] = chosen.map((number) => {
    const entry = versions.find((candidate) => numberOf(candidate) === number);
    return entry ? comparedVersion(entry) : null;
  });
  // Versions are never removed while the thread exists: both are always found.
  if (!first || !second) return null;

  return (
    <div className="compare">
      <div className="compare__choice">
        <VersionSelect
          label={t("First version")}
          versions={versions}
          value={first.number}
          other={second.number}
          onChange={(number) => setChosen([number, second.number])}
        />
        <VersionSelect
          label={t("Second version")}
          versions={versions}
          value={second.number}
          other={first.number}
          onChange={(number) => setChosen([first.number, number])}
        />
      </div>
      <ComparedPair first={first} second={second} />
    </div>
  );
}

function ComparedPair({ first, second }: { first: ComparedVersion; second: ComparedVersion }) {
  const { t } = useTranslation("conversation");
  if (first.imageUrl && second.imageUrl)
    return (
      <CompareImages
        first={{ ...first, imageUrl: first.imageUrl }}
        second={{ ...second, imageUrl: second.imageUrl }}
      />
    );
  if (first.kind === "pdf" || second.kind === "pdf")
    return (
      <Suspense fallback={<Spinner label={t("Loading the pages")} />}>
        {/* Keyed: another pair starts at its page 1 (its page count may be smaller). */}
        <ComparePdfPages key={`${first.number}-${second.number}`} first={first} second={second} />
      </Suspense>
    );
  // Different kinds, neither a PDF (an image and a Word document): each as far as it shows.
  return (
    <div className="compare-stage">
      <ComparePanes>
        {[first, second].map((version) => (
          <ComparePane key={version.number} version={version}>
            <StillVersion version={version} />
          </ComparePane>
        ))}
      </ComparePanes>
    </div>
  );
}

/** A version of the thread; the one chosen on the other side is not offered. */
function VersionSelect({
  label,
  versions,
  value,
  other,
  onChange,
}: {
  label: string;
  versions: FileVersion[];
  value: number;
  other: number;
  onChange: (number: number) => void;
}) {
  const { t } = useTranslation("conversation");
  return (
    <Field label={label}>
      {(control) => (
        <select
          {...control}
          className="input compare__select"
          value={value}
          onChange={(event) => onChange(Number(event.target.value))}
        >
          {versions
            .filter((entry) => numberOf(entry) !== other)
            .map((entry) => {
              const version = comparedVersion(entry);
              return (
                <option key={entry.id} value={version.number}>
                  {t("Version {{version}} · {{file}}", {
                    version: version.number,
                    file: version.fileName,
                  })}
                </option>
              );
            })}
        </select>
      )}
    </Field>
  );
}
