import { catalogOptions } from "./catalog-options.mjs";

// Every email, written with the recipient's t (server/i18n/translator.ts).
export default {
  ...catalogOptions,
  input: ["../../server/mail/**/*.ts", "!../../**/*.test.ts"],
  defaultNamespace: "emails",
  lexers: {
    ts: [{ lexer: "JavascriptLexer", functions: ["t"] }],
    default: ["JavascriptLexer"],
  },
};
