import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

const base = { DATA_DIR: "/tmp/clientdesk-config-test", SESSION_SECRET: "x".repeat(40) };

describe("configuration", () => {
  it("names every wrong value on its own line", () => {
    let error: unknown;
    try {
      loadConfig({ ...base, PORT: "abc", APP_URL: "not a url", DATABASE_URL: "mysql://x", SMTP_URL: "http://x" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const lines = (error as ConfigError).lines;
    expect(lines).toHaveLength(4);
    expect(lines.some((line) => line.startsWith("PORT:"))).toBe(true);
    expect(lines).toContain("DATABASE_URL: must start with postgres://");
    expect(lines).toContain("SMTP_URL: must start with smtp:// or smtps://");
  });

  it("derives APP_URL from PORT and accepts the loopback aliases of a local address", () => {
    const config = loadConfig({ ...base, PORT: "4100" });
    expect(config.appUrl).toBe("http://localhost:4100");
    expect(config.allowedOrigins).toEqual([
      "http://localhost:4100",
      "http://127.0.0.1:4100",
      "http://[::1]:4100",
    ]);
    expect(config.secureCookies).toBe(false);
  });

  it("allows only the public origin and secure cookies for an https address", () => {
    const config = loadConfig({ ...base, APP_URL: "https://desk.example.com/", TRUST_PROXY: "true" });
    expect(config.appUrl).toBe("https://desk.example.com");
    expect(config.allowedOrigins).toEqual(["https://desk.example.com"]);
    expect(config.secureCookies).toBe(true);
  });

  it("enables Google only with both id and secret", () => {
    expect(loadConfig({ ...base, GOOGLE_CLIENT_ID: "id" }).google).toBeUndefined();
    expect(loadConfig({ ...base, GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" }).google?.clientId).toBe("id");
  });
});
