// Paths in `input` are relative to this file (i18next-parser resolves them so).
import { catalogOptions } from "./catalog-options.mjs";

// The web app and the desktop renderer (which mounts it): a file's namespace is the one its
// useTranslation("…") names.
export default {
  ...catalogOptions,
  input: [
    "../../web/src/**/*.{ts,tsx}",
    "../../desktop/renderer/**/*.{ts,tsx}",
    "!../../web/src/**/*.test.{ts,tsx}",
    "!../../desktop/**/*.test.{ts,tsx}",
  ],
  defaultNamespace: "common",
  lexers: {
    ts: [{ lexer: "JavascriptLexer", functions: ["t"] }],
    tsx: [{ lexer: "JsxLexer", functions: ["t"] }],
    default: ["JavascriptLexer"],
  },
};
