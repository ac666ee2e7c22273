/**
 * The pseudo-locales for layout tests (issue 29; shared/i18n/pseudo.ts writes them): every
 * text accented and 40% longer ("long"), or right to left ("rtl"). Their names alone, so that
 * a page can tell whether one is asked for without loading how they are written.
 */
export const PSEUDO_LOCALES = ["long", "rtl"] as const;
export type PseudoLocale = (typeof PSEUDO_LOCALES)[number];
