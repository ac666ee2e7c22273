import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "./csp";
import { loadServerConfig } from "./server-config";

describe("server config", () => {
  it("defaults to the local server", () => {
    expect(loadServerConfig({})).toEqual({
      serverUrl: "http://localhost:3000",
      scheme: "http",
      websocketUrl: "ws://localhost:3000/ws",
    });
  });

  it("takes CLIENTDESK_SERVER_URL", () => {
    expect(loadServerConfig({ CLIENTDESK_SERVER_URL: "https://desk.example.com/" })).toEqual({
      serverUrl: "https://desk.example.com",
      scheme: "https",
      websocketUrl: "wss://desk.example.com/ws",
    });
    expect(loadServerConfig({ CLIENTDESK_SERVER_URL: "http://127.0.0.1:8080" }).websocketUrl).toBe(
      "ws://127.0.0.1:8080/ws",
    );
  });

  it("refuses wrong values with one line", () => {
    const cases: [string, RegExp][] = [
      ["not a url", /not a URL/],
      ["ftp://desk.example.com", /http:\/\/ or https:\/\//],
      ["http://desk.example.com", /must use https/],
      ["https://user:pw@desk.example.com", /user name or password/],
      ["https://desk.example.com/app", /origin only/],
      ["https://desk.example.com/?x=1", /origin only/],
    ];
    for (const [value, message] of cases) {
      expect(() => loadServerConfig({ CLIENTDESK_SERVER_URL: value }), value).toThrow(message);
      expect(() => loadServerConfig({ CLIENTDESK_SERVER_URL: value }), value).toThrow(
        /^CLIENTDESK_SERVER_URL /,
      );
    }
  });
});

describe("CSP", () => {
  it("lets the page connect only to the server and its /ws", () => {
    const csp = contentSecurityPolicy({ server: loadServerConfig({}) });
    const directives = Object.fromEntries(
      csp.split("; ").map((directive) => {
        const [name, ...sources] = directive.split(" ");
        return [name, sources];
      }),
    );
    expect(directives["connect-src"]).toEqual(["http://localhost:3000", "ws://localhost:3000/ws"]);
    expect(directives["default-src"]).toEqual(["'none'"]);
    expect(directives["script-src"]).toEqual(["'self'"]);
    expect(directives["object-src"]).toEqual(["'none'"]);
    expect(directives["frame-ancestors"]).toEqual(["'none'"]);
    expect(directives["base-uri"]).toEqual(["'none'"]);
    expect(csp).not.toContain("unsafe-eval");
    expect(directives["script-src"]).not.toContain("'unsafe-inline'");
  });

  it("adds the dev server only when given", () => {
    const csp = contentSecurityPolicy({
      server: loadServerConfig({}),
      devServerOrigin: "http://localhost:5173",
    });
    expect(csp).toContain("script-src 'self' http://localhost:5173");
    expect(csp).toContain("ws://localhost:5173");
  });
});
