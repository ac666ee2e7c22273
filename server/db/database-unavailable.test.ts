import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./database-unavailable";

const withCode = (code: string, message = "failed") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("knows the errors of a database that is down, frozen or refusing", () => {
    for (const error of [
      withCode("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432"),
      withCode("ECONNRESET"),
      withCode("57014", "canceling statement due to statement timeout"),
      withCode("57P01", "terminating connection due to administrator command"),
      withCode("53300", "sorry, too many clients already"),
      withCode("08006"),
      new Error("Connection terminated unexpectedly"),
      new Error("Connection terminated due to connection timeout"),
      new Error("select 1 - Query read timeout"),
      Object.assign(new Error("Knex: Timeout acquiring a connection."), {
        name: "KnexTimeoutError",
      }),
      new Error("wrapped", { cause: withCode("ECONNREFUSED") }),
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    }
  });

  it("leaves every other failure alone", () => {
    for (const error of [
      new Error("boom"),
      withCode("23505", "duplicate key value violates unique constraint"),
      withCode("22021", "invalid byte sequence for encoding"),
      withCode("42P01", 'relation "x" does not exist'),
      new TypeError("Cannot read properties of undefined"),
      undefined,
      "text",
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });
});
