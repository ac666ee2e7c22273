/**
 * Page by page comparison of two versions, one of them at least a PDF. Only ever imported
 * dynamically, as pdf-viewer.tsx is: pdf.js comes with the first PDF compared.
 */
import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Spinner } from "../ui/spinner";
import {
  ComparePane,
  ComparePanes,
  type ComparedVersion,
  NoPage,
  StillVersion,
} from "./compare-panes";
import { PreviewFailed } from "./preview-failed";
import { CSS_PER_POINT, DrawnPage, openPdf, PageControls, usePdfPage } from "./pdf-pages";
import { PreviewToolbar } from "./preview-toolbar";
import { useViewportSize } from "./preview-zoom";

type Loaded =
  | { state: "loading" }
  | { state: "failed" }
  | { state: "ready"; pdf: PDFDocumentProxy }
  /** Not a PDF: an image or another file, one page. */
  | { state: "still" };

function usePdf(version: ComparedVersion): Loaded {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  const url = version.kind === "pdf" ? version.url : null;
  useEffect(() => {
    if (!url) {
      setLoaded({ state: "still" });
      return;
    }
    setLoaded({ state: "loading" });
    const task = openPdf(url);
    task.promise.then(
      (pdf) => setLoaded({ state: "ready", pdf }),
      () => setLoaded({ state: "failed" }),
    );
    return () => {
      void task.destroy();
    };
  }, [url]);
  return loaded;
}

const pagesOf = (loaded: Loaded) =>
  loaded.state === "ready" ? loaded.pdf.numPages : loaded.state === "loading" ? 0 : 1;

/** Both versions at the same page, side by side (stacked on a phone); one control pages both. */
export default function ComparePdfPages({
  first,
  second,
}: {
  first: ComparedVersion;
  second: ComparedVersion;
}) {
  const { t } = useTranslation("conversation");
  const sides = [
    { version: first, loaded: usePdf(first) },
    { version: second, loaded: usePdf(second) },
  ];
  const [page, setPage] = useState(1);
  const stageRef = useRef<HTMLElement>(null);
  const known = sides.every((side) => side.loaded.state !== "loading");
  const pageCount = Math.max(...sides.map((side) => pagesOf(side.loaded)));
  const pageText = known ? t("Page {{page}} of {{total}}", { page, total: pageCount }) : "";
  const goTo = (next: number) => {
    setPage(next);
    stageRef.current?.scrollTo({ top: 0, left: 0 });
  };

  return (
    <div className="preview-viewer">
      <PreviewToolbar>
        <PageControls page={page} pageCount={pageCount} pageText={pageText} onGoTo={goTo} />
      </PreviewToolbar>
      <section
        ref={stageRef}
        className="compare-stage"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard must be able to scroll long pages
        tabIndex={0}
        aria-label={
          pageText
            ? t("Both versions, page {{page}} of {{total}}", { page, total: pageCount })
            : t("Both versions")
        }
      >
        <ComparePanes stackOnPhone>
          {sides.map(({ version, loaded }) => (
            <ComparePane key={version.number} version={version}>
              <SidePage version={version} loaded={loaded} page={page} />
            </ComparePane>
          ))}
        </ComparePanes>
      </section>
    </div>
  );
}

function SidePage({
  version,
  loaded,
  page,
}: {
  version: ComparedVersion;
  loaded: Loaded;
  page: number;
}) {
  const { t } = useTranslation("conversation");
  if (loaded.state === "loading")
    return <Spinner label={t("Loading version {{version}}", { version: version.number })} />;
  if (loaded.state === "failed")
    return <PreviewFailed url={version.url} fileName={version.fileName} />;
  if (page > pagesOf(loaded)) return <NoPage version={version} page={page} />;
  if (loaded.state === "still") return <StillVersion version={version} />;
  return <PdfPage version={version} pdf={loaded.pdf} pageNumber={page} />;
}

/** One page, as wide as its pane, with pdf.js's text layer (to select, copy and read aloud). */
function PdfPage({
  version,
  pdf,
  pageNumber,
}: {
  version: ComparedVersion;
  pdf: PDFDocumentProxy;
  pageNumber: number;
}) {
  const { t } = useTranslation("conversation");
  const [failed, setFailed] = useState(false);
  const roomRef = useRef<HTMLDivElement>(null);
  const room = useViewportSize(roomRef);
  const page = usePdfPage(pdf, pageNumber, () => setFailed(true));

  const base = page?.getViewport({ scale: CSS_PER_POINT });
  const zoom = base && room ? room.width / base.width : 0;

  if (failed) return <PreviewFailed url={version.url} fileName={version.fileName} />;
  return (
    <div ref={roomRef} className="compare-pane__page-room">
      {page && zoom > 0 ? (
        <DrawnPage page={page} zoom={zoom} onFailed={() => setFailed(true)} />
      ) : (
        <Spinner label={t("Loading version {{version}}", { version: version.number })} />
      )}
    </div>
  );
}
