import { describe, expect, it } from "vitest";
import { API_RESPONSES } from "../../shared/api/responses";
import { checkApiAnswer } from "../../tests/support/api-contract";
import { registeredRoutes } from "../../tests/support/registered-routes";

describe("the API response table (shared/api/responses.ts)", () => {
  it("names every /api/ route the server registers, and no other", async () => {
    const api = (await registeredRoutes()).filter((route) =>
      route.split(" ")[1]?.startsWith("/api/"),
    );
    expect(api.length).toBeGreaterThan(40);
    expect(api.filter((route) => !(route in API_RESPONSES))).toEqual([]);
    expect(Object.keys(API_RESPONSES).filter((route) => !api.includes(route))).toEqual([]);
  });
});

describe("checkApiAnswer (what TestAgent runs on every answer)", () => {
  const answer = (url: string, status: number, body: unknown) => ({
    method: "GET",
    url: `http://127.0.0.1${url}`,
    status,
    contentType: "application/json; charset=utf-8",
    text: JSON.stringify(body),
    body,
  });

  it("fails an answer with a field its schema does not list, naming the route", () => {
    const body = { available: true, secret: "leak" };
    expect(() => checkApiAnswer(answer("/api/auth/google-available", 200, body))).toThrow(
      /GET \/api\/auth\/google-available answered 200: .*schema of GET \/api\/auth\/google-available[\s\S]*secret/,
    );
    expect(() =>
      checkApiAnswer(answer("/api/auth/google-available", 200, { available: true })),
    ).not.toThrow();
  });

  it("fails a success from a route missing from the table, and an error that is not {message}", () => {
    expect(() => checkApiAnswer(answer("/api/nowhere", 200, {}))).toThrow(/no entry/);
    expect(() =>
      checkApiAnswer(answer("/api/nowhere", 404, { message: "Not found" })),
    ).not.toThrow();
    expect(() => checkApiAnswer(answer("/api/user", 401, { error: "no" }))).toThrow(/error schema/);
  });

  it("matches static paths before parametric ones and leaves other paths alone", () => {
    const client = answer("/api/clients/abc/messages?before=x", 200, []);
    expect(() => checkApiAnswer(client)).not.toThrow();
    expect(() => checkApiAnswer(answer("/healthz", 200, { status: "ok" }))).not.toThrow();
  });
});
