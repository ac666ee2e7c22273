/**
 * Each page's catalogs (shared/locales/<language>/<namespace>.json), one chunk per file,
 * loaded only in the reader's language. A page lists only its own namespaces, so its bundle
 * names only their chunks. `namespaces` load before the first render; `errors` (the server's:
 * the shared schemas' texts that a form checks before sending) loads with a component that
 * asks for it (`useTranslation([..., "errors"])`).
 */
export type CatalogLoader = () => Promise<Record<string, string>>;
export interface PageCatalogs {
  namespaces: readonly string[];
  /** By path: "../../../shared/locales/<language>/<namespace>.json". */
  files: Record<string, CatalogLoader>;
}

export const catalogPath = (language: string, namespace: string) =>
  `../../../shared/locales/${language}/${namespace}.json`;
