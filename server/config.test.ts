import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import webpush from "web-push";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

const base = { DATA_DIR: "/tmp/clientdesk-config-test", SESSION_SECRET: "x".repeat(40) };

describe("configuration", () => {
  it("names every wrong value on its own line", () => {
    let error: unknown;
    try {
      loadConfig({
        ...base,
        PORT: "abc",
        APP_URL: "not a url",
        DATABASE_URL: "mysql://x",
        SMTP_URL: "http://x",
      });
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
    const config = loadConfig({
      ...base,
      APP_URL: "https://desk.example.com/",
      TRUST_PROXY: "true",
    });
    expect(config.appUrl).toBe("https://desk.example.com");
    expect(config.allowedOrigins).toEqual(["https://desk.example.com"]);
    expect(config.secureCookies).toBe(true);
  });

  it("enables Google only with both id and secret", () => {
    expect(loadConfig({ ...base, GOOGLE_CLIENT_ID: "id" }).google).toBeUndefined();
    expect(
      loadConfig({ ...base, GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" }).google?.clientId,
    ).toBe("id");
  });
});

/** The refusal lines of loadConfig, or [] when it starts. */
function refusals(env: Record<string, string>): string[] {
  try {
    loadConfig({ ...base, ...env });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.lines;
    throw error;
  }
}

const stripeKeys = { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" };
const production = { NODE_ENV: "production", SMTP_URL: "smtp://mail.example.com:587" };

describe("billing mode", () => {
  it("defaults to test outside production and to stripe when STRIPE_SECRET_KEY is set", () => {
    expect(loadConfig({ ...base }).billingMode).toBe("test");
    expect(loadConfig({ ...base, NODE_ENV: "test" }).billingMode).toBe("test");
    expect(loadConfig({ ...base }).stripe).toBeUndefined();
    const stripe = loadConfig({ ...base, ...stripeKeys });
    expect(stripe.billingMode).toBe("stripe");
    expect(stripe.stripe).toEqual({
      secretKey: "sk_test_x",
      webhookSecret: "whsec_x",
      apiBase: undefined,
    });
    expect(loadConfig({ ...base, ...production, ...stripeKeys }).billingMode).toBe("stripe");
  });

  it("takes each mode when named, in production too", () => {
    for (const env of [{}, production]) {
      expect(
        loadConfig({ ...base, ...env, BILLING_MODE: "stripe", ...stripeKeys }).billingMode,
      ).toBe("stripe");
      expect(loadConfig({ ...base, ...env, BILLING_MODE: "test" }).billingMode).toBe("test");
      const off = loadConfig({ ...base, ...env, BILLING_MODE: "off" });
      expect(off.billingMode).toBe("off");
      expect(off.stripe).toBeUndefined();
    }
  });

  it("stops production that chose nothing with one line naming the choices", () => {
    expect(refusals(production)).toEqual([
      "BILLING_MODE: set stripe (with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET), test or off",
    ]);
  });

  it("needs both Stripe keys for stripe, named or by default", () => {
    const line = "BILLING_MODE: stripe needs both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET";
    expect(refusals({ STRIPE_SECRET_KEY: "sk_test_x" })).toEqual([line]);
    expect(refusals({ ...production, STRIPE_SECRET_KEY: "sk_test_x" })).toEqual([line]);
    expect(refusals({ BILLING_MODE: "stripe" })).toEqual([line]);
    expect(refusals({ BILLING_MODE: "stripe", STRIPE_WEBHOOK_SECRET: "whsec_x" })).toEqual([line]);
  });

  it("refuses Stripe keys that test or off would ignore, and an unknown mode", () => {
    expect(refusals({ BILLING_MODE: "test", ...stripeKeys })).toEqual([
      "BILLING_MODE: test does not use the Stripe keys; unset them or choose stripe",
    ]);
    expect(refusals({ BILLING_MODE: "off", STRIPE_WEBHOOK_SECRET: "whsec_x" })).toEqual([
      "BILLING_MODE: off does not use the Stripe keys; unset them or choose stripe",
    ]);
    expect(refusals({ BILLING_MODE: "free" })).toEqual([
      "BILLING_MODE: must be stripe, test or off",
    ]);
  });
});

describe("start-up refusals", () => {
  it("stops production without SMTP_URL", () => {
    expect(refusals({ NODE_ENV: "production", BILLING_MODE: "off" })).toEqual([
      "SMTP_URL: required in production (codes and sign-in links go by mail)",
    ]);
    // Development keeps the dev mailbox.
    expect(refusals({ BILLING_MODE: "off" })).toEqual([]);
  });

  it("stops an https APP_URL without TRUST_PROXY=true, in every environment", () => {
    const line =
      "TRUST_PROXY: APP_URL is https, so a TLS proxy is in front: set TRUST_PROXY=true (secure cookies need it)";
    expect(refusals({ APP_URL: "https://desk.example.com" })).toEqual([line]);
    expect(
      refusals({ ...production, BILLING_MODE: "off", APP_URL: "https://desk.example.com" }),
    ).toEqual([line]);
    expect(refusals({ APP_URL: "https://desk.example.com", TRUST_PROXY: "false" })).toEqual([line]);
    expect(refusals({ APP_URL: "https://desk.example.com", TRUST_PROXY: "true" })).toEqual([]);
    expect(refusals({ APP_URL: "http://desk.example.com" })).toEqual([]);
  });

  it("stops a Google issuer over plain http unless it is on this machine", () => {
    const line = "GOOGLE_ISSUER: must be https (plain http only on a loopback host, for tests)";
    expect(refusals({ GOOGLE_ISSUER: "http://accounts.example.com" })).toEqual([line]);
    expect(refusals({ GOOGLE_ISSUER: "http://10.0.0.5:8080" })).toEqual([line]);
    expect(refusals({ GOOGLE_ISSUER: "http://127.0.0.1:8080" })).toEqual([]);
    expect(refusals({ GOOGLE_ISSUER: "http://localhost:8080" })).toEqual([]);
    expect(refusals({ GOOGLE_ISSUER: "https://accounts.google.com" })).toEqual([]);
  });

  it("keeps files on disk unless S3_BUCKET is set", () => {
    expect(loadConfig(base).s3).toBeUndefined();
    expect(loadConfig({ ...base, S3_BUCKET: "" }).s3).toBeUndefined();
  });

  it("reads the object storage settings, with us-east-1 and virtual-host style by default", () => {
    expect(loadConfig({ ...base, S3_BUCKET: "client-files" }).s3).toEqual({
      bucket: "client-files",
      endpoint: undefined,
      region: "us-east-1",
      credentials: undefined,
      forcePathStyle: false,
    });
    expect(
      loadConfig({
        ...base,
        S3_BUCKET: "client-files",
        S3_ENDPOINT: "http://minio:9000",
        S3_REGION: "auto",
        S3_ACCESS_KEY_ID: "key",
        S3_SECRET_ACCESS_KEY: "secret",
        S3_FORCE_PATH_STYLE: "true",
      }).s3,
    ).toEqual({
      bucket: "client-files",
      endpoint: "http://minio:9000",
      region: "auto",
      credentials: { accessKeyId: "key", secretAccessKey: "secret" },
      forcePathStyle: true,
    });
  });

  it("names each wrong object storage value on its own line", () => {
    let error: unknown;
    try {
      loadConfig({
        ...base,
        S3_BUCKET: "Client_Files",
        S3_ENDPOINT: "ftp://files.example.com",
        S3_REGION: "US East",
        S3_FORCE_PATH_STYLE: "yes",
      });
    } catch (caught) {
      error = caught;
    }
    expect((error as ConfigError).lines).toEqual([
      "S3_BUCKET: must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens",
      "S3_ENDPOINT: must be an http(s) URL such as https://s3.example.com",
      "S3_REGION: must be a region such as us-east-1 or auto",
      "S3_FORCE_PATH_STYLE: must be true or false",
    ]);
  });

  it("stops on S3 settings without a bucket, and on one key without the other", () => {
    expect(refusals({ S3_ENDPOINT: "https://s3.example.com", S3_ACCESS_KEY_ID: "k" })).toEqual([
      "S3_BUCKET: required with S3_ENDPOINT, S3_ACCESS_KEY_ID (or unset them to keep files under DATA_DIR)",
    ]);
    expect(refusals({ S3_BUCKET: "files", S3_ACCESS_KEY_ID: "k" })).toEqual([
      "S3_SECRET_ACCESS_KEY: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the SDK's own credentials)",
    ]);
    expect(refusals({ S3_BUCKET: "files", S3_SECRET_ACCESS_KEY: "s" })).toEqual([
      "S3_ACCESS_KEY_ID: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the SDK's own credentials)",
    ]);
    expect(refusals({ S3_BUCKET: "files" })).toEqual([]);
  });

  it("names every refusal on its own line", () => {
    expect(
      refusals({
        NODE_ENV: "production",
        APP_URL: "https://desk.example.com",
        S3_REGION: "eu-west-1",
      }),
    ).toEqual([
      "BILLING_MODE: set stripe (with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET), test or off",
      "SMTP_URL: required in production (codes and sign-in links go by mail)",
      "TRUST_PROXY: APP_URL is https, so a TLS proxy is in front: set TRUST_PROXY=true (secure cookies need it)",
      "S3_BUCKET: required with S3_REGION (or unset them to keep files under DATA_DIR)",
    ]);
  });
});

describe("metrics token", () => {
  it("is off when unset or empty, taken when 16 characters or more, refused when shorter", () => {
    expect(loadConfig(base).metricsToken).toBeUndefined();
    expect(loadConfig({ ...base, METRICS_TOKEN: "" }).metricsToken).toBeUndefined();
    expect(loadConfig({ ...base, METRICS_TOKEN: "m".repeat(16) }).metricsToken).toBe(
      "m".repeat(16),
    );
    expect(refusals({ METRICS_TOKEN: "short" })).toEqual([
      "METRICS_TOKEN: must be at least 16 characters",
    ]);
  });
});

describe("reply by email", () => {
  it("is off unless both INBOUND_SMTP_PORT and INBOUND_EMAIL_DOMAIN are set", () => {
    expect(loadConfig(base).inboundMail).toBeUndefined();
    expect(
      loadConfig({ ...base, INBOUND_SMTP_PORT: "2525", INBOUND_EMAIL_DOMAIN: "Reply.Example.com" })
        .inboundMail,
    ).toEqual({ port: 2525, domain: "reply.example.com" });
    expect(refusals({ INBOUND_SMTP_PORT: "2525" })).toEqual([
      "INBOUND_EMAIL_DOMAIN: set both INBOUND_SMTP_PORT and INBOUND_EMAIL_DOMAIN, or neither (no reply by email)",
    ]);
    expect(refusals({ INBOUND_EMAIL_DOMAIN: "reply.example.com" })).toEqual([
      "INBOUND_SMTP_PORT: set both INBOUND_SMTP_PORT and INBOUND_EMAIL_DOMAIN, or neither (no reply by email)",
    ]);
    expect(
      refusals({ INBOUND_SMTP_PORT: "70000", INBOUND_EMAIL_DOMAIN: "reply.example.com" }),
    ).toEqual(["INBOUND_SMTP_PORT: must be a port number (0-65535; 0 picks a free one)"]);
    expect(refusals({ INBOUND_SMTP_PORT: "25", INBOUND_EMAIL_DOMAIN: "not a domain" })).toEqual([
      "INBOUND_EMAIL_DOMAIN: must be a domain name such as reply.example.com",
    ]);
  });
});

describe("listening addresses (HOST, INBOUND_SMTP_HOST)", () => {
  const inbound = { INBOUND_SMTP_PORT: "2525", INBOUND_EMAIL_DOMAIN: "reply.example.com" };

  it("listen on every interface by default; HOST sets HTTP's and, by default, SMTP's", () => {
    expect(loadConfig(base).host).toBeUndefined();
    expect(loadConfig({ ...base, ...inbound }).inboundMail?.host).toBeUndefined();
    const local = loadConfig({ ...base, ...inbound, HOST: "127.0.0.1" });
    expect(local.host).toBe("127.0.0.1");
    expect(local.inboundMail?.host).toBe("127.0.0.1");
    const apart = loadConfig({ ...base, ...inbound, HOST: "::1", INBOUND_SMTP_HOST: "10.0.0.5" });
    expect(apart.host).toBe("::1");
    expect(apart.inboundMail?.host).toBe("10.0.0.5");
    expect(loadConfig({ ...base, HOST: "app.internal" }).host).toBe("app.internal");
  });

  it("refuses what is no address, and INBOUND_SMTP_HOST without reply by email", () => {
    const line =
      "must be an address of this machine to listen on, such as 127.0.0.1, 0.0.0.0 or ::";
    expect(refusals({ HOST: "http://0.0.0.0" })).toEqual([`HOST: ${line}`]);
    expect(refusals({ ...inbound, INBOUND_SMTP_HOST: "[::1]" })).toEqual([
      `INBOUND_SMTP_HOST: ${line}`,
    ]);
    expect(refusals({ INBOUND_SMTP_HOST: "127.0.0.1" })).toEqual([
      "INBOUND_SMTP_PORT: required with INBOUND_SMTP_HOST (or unset them: no reply by email)",
    ]);
  });
});

describe("authenticated replies (INBOUND_AUTHSERV_ID, INBOUND_AUTH)", () => {
  const inbound = { INBOUND_SMTP_PORT: "2525", INBOUND_EMAIL_DOMAIN: "reply.example.com" };
  const inProduction = { ...production, BILLING_MODE: "off", ...inbound };

  it("checks Authentication-Results of INBOUND_AUTHSERV_ID, in any environment", () => {
    expect(loadConfig({ ...base, ...inbound }).inboundMail?.authservId).toBeUndefined();
    expect(
      loadConfig({ ...base, ...inbound, INBOUND_AUTHSERV_ID: "mx.example.com" }).inboundMail
        ?.authservId,
    ).toBe("mx.example.com");
    expect(
      loadConfig({ ...base, ...inProduction, INBOUND_AUTHSERV_ID: "mx.example.com" }).inboundMail
        ?.authservId,
    ).toBe("mx.example.com");
  });

  it("stops production with reply by email but no INBOUND_AUTHSERV_ID, unless INBOUND_AUTH=off", () => {
    expect(refusals(inProduction)).toEqual([
      "INBOUND_AUTHSERV_ID: required in production with reply by email (the authserv-id of your relay's Authentication-Results), or set INBOUND_AUTH=off to take unauthenticated replies",
    ]);
    const off = loadConfig({ ...base, ...inProduction, INBOUND_AUTH: "off" });
    expect(off.inboundMail).toMatchObject({ port: 2525 });
    expect(off.inboundMail?.authservId).toBeUndefined();
    // Without reply by email there is nothing to authenticate.
    expect(refusals({ ...production, BILLING_MODE: "off" })).toEqual([]);
  });

  it("refuses a malformed id, INBOUND_AUTH other than off, both at once, and either without reply by email", () => {
    expect(refusals({ ...inbound, INBOUND_AUTHSERV_ID: "mx.example.com; dmarc=pass" })).toEqual([
      "INBOUND_AUTHSERV_ID: must be the authserv-id your relay writes first in Authentication-Results, such as mx.example.com",
    ]);
    expect(refusals({ ...inbound, INBOUND_AUTH: "on" })).toEqual([
      "INBOUND_AUTH: must be off, or unset (replies must be authenticated)",
    ]);
    expect(
      refusals({ ...inbound, INBOUND_AUTH: "off", INBOUND_AUTHSERV_ID: "mx.example.com" }),
    ).toEqual(["INBOUND_AUTH: off ignores INBOUND_AUTHSERV_ID; unset one of them"]);
    expect(refusals({ INBOUND_AUTHSERV_ID: "mx.example.com", INBOUND_AUTH: "off" })).toEqual([
      "INBOUND_SMTP_PORT: required with INBOUND_AUTHSERV_ID, INBOUND_AUTH (or unset them: no reply by email)",
    ]);
  });
});

describe("web push keys", () => {
  it("generates one pair into DATA_DIR and keeps it across starts", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "clientdesk-vapid-"));
    const first = loadConfig({ ...base, DATA_DIR: dataDir }).vapid;
    expect(Buffer.from(first.publicKey, "base64url")).toHaveLength(65);
    expect(loadConfig({ ...base, DATA_DIR: dataDir }).vapid).toEqual(first);
    expect(statSync(path.join(dataDir, "vapid-keys.json")).mode & 0o777).toBe(0o600);
    expect(first.subject).toBe("mailto:no-reply@localhost");
    rmSync(dataDir, { recursive: true });
  });

  it("takes a matching pair from the environment and refuses half or mismatched pairs", () => {
    const pair = webpush.generateVAPIDKeys();
    const other = webpush.generateVAPIDKeys();
    const env = { ...base, VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey };
    expect(loadConfig({ ...env, VAPID_SUBJECT: "https://desk.example.com" }).vapid).toEqual({
      ...pair,
      subject: "https://desk.example.com",
    });
    expect(refusals({ VAPID_PUBLIC_KEY: pair.publicKey })).toEqual([
      "VAPID_PRIVATE_KEY: set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither (generated into DATA_DIR)",
    ]);
    expect(
      refusals({ VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: other.privateKey }),
    ).toEqual([
      "VAPID_PUBLIC_KEY: must be a P-256 public key (65 bytes, base64url) and VAPID_PRIVATE_KEY its 32-byte private key, as `npx web-push generate-vapid-keys` prints them",
    ]);
    expect(refusals({ VAPID_SUBJECT: "http://x" })).toEqual([
      "VAPID_SUBJECT: must start with mailto: or https://",
    ]);
  });
});

describe("PUSH_TEST_ORIGINS (tests' local push services)", () => {
  it("takes loopback http origins outside production, refuses anything else, and fails closed in production", () => {
    expect(
      loadConfig({ ...base, PUSH_TEST_ORIGINS: "http://127.0.0.1:9000/, http://localhost:9001" })
        .pushTestOrigins,
    ).toEqual(["http://127.0.0.1:9000", "http://localhost:9001"]);
    expect(loadConfig(base).pushTestOrigins).toEqual([]);
    expect(refusals({ PUSH_TEST_ORIGINS: "http://push.example.com" })).toEqual([
      "PUSH_TEST_ORIGINS: must be http origins on a loopback host, e.g. http://127.0.0.1:9000",
    ]);
    expect(refusals({ PUSH_TEST_ORIGINS: "https://127.0.0.1:9000" })).toEqual([
      "PUSH_TEST_ORIGINS: must be http origins on a loopback host, e.g. http://127.0.0.1:9000",
    ]);
    expect(
      refusals({
        NODE_ENV: "production",
        BILLING_MODE: "off",
        SMTP_URL: "smtp://mail:25",
        PUSH_TEST_ORIGINS: "http://127.0.0.1:9000",
      }),
    ).toEqual(["PUSH_TEST_ORIGINS: tests only; unset it in production"]);
  });
});

describe("EXPORT_INLINE_MAX_BYTES (issue 28, exports mailed as a link beyond it)", () => {
  it("defaults to 100 MB, takes a number of bytes and refuses anything else", () => {
    expect(loadConfig(base).exportInlineMaxBytes).toBe(104_857_600);
    expect(loadConfig({ ...base, EXPORT_INLINE_MAX_BYTES: "" }).exportInlineMaxBytes).toBe(
      104_857_600,
    );
    expect(loadConfig({ ...base, EXPORT_INLINE_MAX_BYTES: "1024" }).exportInlineMaxBytes).toBe(
      1024,
    );
    expect(refusals({ EXPORT_INLINE_MAX_BYTES: "100MB" })).toEqual([
      "EXPORT_INLINE_MAX_BYTES: must be a number of bytes, such as 104857600 (100 MB)",
    ]);
  });
});
