import { catalogOptions } from "./catalog-options.mjs";

// Every {message} a person reads: the server's errors (thrown with the helpers of
// server/errors.ts, whose first argument is the English text) and the shared schemas' texts
// (marked with msg() from shared/i18n/msg.ts).
export default {
  ...catalogOptions,
  input: [
    "../../server/**/*.ts",
    "../../shared/**/*.ts",
    "!../../server/mail/**",
    "!../../**/*.test.ts",
  ],
  defaultNamespace: "errors",
  lexers: {
    ts: [
      {
        lexer: "JavascriptLexer",
        functions: [
          "msg",
          "badRequest",
          "unauthorized",
          "paymentRequired",
          "forbidden",
          "notFound",
          "conflict",
          "gone",
          "payloadTooLarge",
          "unprocessable",
          "tooManyRequests",
          "badGateway",
        ],
      },
    ],
    default: ["JavascriptLexer"],
  },
};
