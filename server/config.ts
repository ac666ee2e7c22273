import { createECDH, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP, isIPv4 } from "node:net";
import path from "node:path";
import webpush from "web-push";
import { z } from "zod";
import { BILLING_MODES, type BillingMode } from "../shared/billing-mode";

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === "" ? undefined : value));

/** An address of this machine to listen on: an IP address or a host name (brackets not needed). */
const listenHost = optionalString.pipe(
  z
    .string()
    .refine(
      (value) =>
        isIP(value) !== 0 ||
        /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(
          value,
        ),
      "must be an address of this machine to listen on, such as 127.0.0.1, 0.0.0.0 or ::",
    )
    .optional(),
);

/** 100 MB: an export whose files add up to more is mailed as a link rather than streamed. */
export const DEFAULT_EXPORT_INLINE_MAX_BYTES = 100 * 1024 * 1024;

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Where the HTTP server (and by default the inbound SMTP listener) listens; unset: every interface. */
  HOST: listenHost,
  APP_URL: optionalString.pipe(
    z.url({ error: "must be a URL such as http://localhost:3000" }).optional(),
  ),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres://")
      .optional(),
  ),
  SESSION_SECRET: optionalString.pipe(
    z.string().min(32, "must be at least 32 characters").optional(),
  ),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
      .optional(),
  ),
  MAIL_FROM: z.string().default("ClientDesk <no-reply@localhost>"),
  /** stripe | test | off; unset: stripe with STRIPE_SECRET_KEY, else test outside production. */
  BILLING_MODE: optionalString.pipe(
    z.enum(BILLING_MODES, { error: "must be stripe, test or off" }).optional(),
  ),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Another Stripe API address (e.g. http://127.0.0.1:12111 for a local stand-in in tests). */
  STRIPE_API_BASE: optionalString.pipe(
    z.url({ error: "must be a URL such as http://127.0.0.1:12111" }).optional(),
  ),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  /** Where Google's OpenID configuration lives; tests point it at oauth2-mock-server. */
  GOOGLE_ISSUER: z.url().default("https://accounts.google.com"),
  /** Setting it keeps every stored byte in this bucket instead of DATA_DIR/files. */
  S3_BUCKET: optionalString.pipe(
    z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        "must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens",
      )
      .optional(),
  ),
  /** MinIO, R2 or another S3-compatible service; unset: AWS S3 of S3_REGION. */
  S3_ENDPOINT: optionalString.pipe(
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://s3.example.com" })
      .optional(),
  ),
  S3_REGION: optionalString.pipe(
    z
      .string()
      .regex(/^[a-z0-9-]{2,32}$/, "must be a region such as us-east-1 or auto")
      .optional(),
  ),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: optionalString.pipe(
    z.enum(["true", "false"], { error: "must be true or false" }).optional(),
  ),
  TRUST_PROXY: z
    .enum(["true", "false", ""])
    .default("false")
    .transform((value) => value === "true"),
  /** Bearer token for GET /metrics; unset: /metrics answers 404. */
  METRICS_TOKEN: optionalString.pipe(
    z.string().min(16, "must be at least 16 characters").optional(),
  ),
  /** Where the product receives replies to its mails (smtp-server); unset: no reply by email. */
  INBOUND_SMTP_PORT: optionalString.pipe(
    z
      .string()
      .regex(/^\d{1,5}$/, "must be a port number (0-65535; 0 picks a free one)")
      .transform(Number)
      .pipe(z.number().max(65535, "must be a port number (0-65535; 0 picks a free one)"))
      .optional(),
  ),
  /** The domain of reply+<token>@ addresses; its MX (or a forwarding rule) leads to INBOUND_SMTP_PORT. */
  INBOUND_EMAIL_DOMAIN: optionalString.pipe(
    z
      .string()
      .regex(
        /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$|^localhost$/i,
        "must be a domain name such as reply.example.com",
      )
      .optional(),
  ),
  /** Where the inbound SMTP listener listens; unset: HOST. */
  INBOUND_SMTP_HOST: listenHost,
  /**
   * The authserv-id of the relay's Authentication-Results (RFC 8601): a reply is taken only
   * with DMARC or aligned DKIM passing for its From domain in a header of that id.
   */
  INBOUND_AUTHSERV_ID: optionalString.pipe(
    z
      .string()
      .regex(
        /^[!#$%&'*+\-.0-9A-Z^_`a-z{|}~]+$/,
        "must be the authserv-id your relay writes first in Authentication-Results, such as mx.example.com",
      )
      .optional(),
  ),
  /** off: take replies without Authentication-Results, in production too (not advised). */
  INBOUND_AUTH: optionalString.pipe(
    z.enum(["off"], { error: "must be off, or unset (replies must be authenticated)" }).optional(),
  ),
  /** Web push keys (base64url, as web-push generates them); unset: generated once into DATA_DIR. */
  VAPID_PUBLIC_KEY: optionalString,
  VAPID_PRIVATE_KEY: optionalString,
  /** Who push services may contact about our pushes: mailto: or https: (default: mailto: of MAIL_FROM). */
  VAPID_SUBJECT: optionalString.pipe(
    z
      .string()
      .regex(/^(mailto:|https:\/\/)/, "must start with mailto: or https://")
      .optional(),
  ),
  /**
   * Tests only: push service origins on this machine (http://127.0.0.1:PORT, comma-separated)
   * that subscriptions may name although they are plain http on a loopback host. Refused in
   * production, where every push endpoint must be https on a public host (server/push).
   */
  PUSH_TEST_ORIGINS: optionalString,
  /** Exports (issue 28) whose files add up to more are built in the background and mailed as a link. */
  EXPORT_INLINE_MAX_BYTES: optionalString.pipe(
    z
      .string()
      .regex(/^\d{1,15}$/, "must be a number of bytes, such as 104857600 (100 MB)")
      .transform(Number)
      .optional(),
  ),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type { BillingMode };

export interface Config {
  env: "development" | "production" | "test";
  port: number;
  /** HOST: the address the HTTP server listens on; unset: every interface. */
  host?: string;
  appUrl: string;
  appOrigin: string;
  /** Origins allowed to write and to open /ws: APP_URL's, plus its loopback aliases for a local APP_URL. */
  allowedOrigins: string[];
  secureCookies: boolean;
  dataDir: string;
  databaseUrl?: string;
  sessionSecret: string;
  smtpUrl?: string;
  mailFrom: string;
  /** stripe: real payments; test: the simulated checkout; off: self-hosted, every feature for every owner. */
  billingMode: BillingMode;
  /** Set exactly when billingMode is stripe. */
  stripe?: { secretKey: string; webhookSecret: string; apiBase?: string };
  google?: { clientId: string; clientSecret: string; issuer: string };
  /** Set with S3_BUCKET: stored bytes go to object storage; otherwise to DATA_DIR/files. */
  s3?: S3Settings;
  trustProxy: boolean;
  /** The bearer token /metrics asks for; unset: no /metrics. */
  metricsToken?: string;
  logLevel: string;
  /** Set with INBOUND_SMTP_PORT: replies to our mails come in here (server/inbound). */
  inboundMail?: InboundMailSettings;
  /** Web push (VAPID) keys: from the environment, else generated once and kept in DATA_DIR. */
  vapid: VapidKeys;
  /** PUSH_TEST_ORIGINS: loopback push services the tests run; always empty in production. */
  pushTestOrigins: string[];
  /** EXPORT_INLINE_MAX_BYTES: larger exports are built by a job and mailed as a link. */
  exportInlineMaxBytes: number;
}

export interface InboundMailSettings {
  port: number;
  /** INBOUND_SMTP_HOST, else HOST; unset: every interface. */
  host?: string;
  domain: string;
  /** Replies must carry this relay's Authentication-Results; unset: no check (INBOUND_AUTH=off, or outside production). */
  authservId?: string;
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export interface S3Settings {
  bucket: string;
  /** Unset: AWS S3 itself. */
  endpoint?: string;
  region: string;
  /** Unset: the SDK's own chain (environment, instance role...). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Bucket in the path (MinIO, s3rver) rather than in the host name. */
  forcePathStyle: boolean;
}

/** Parses the environment; throws one line per wrong value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(lines);
  }
  const values = parsed.data;
  const refusals = startupRefusals(values);
  if (refusals.length > 0) throw new ConfigError(refusals);
  const billingMode = chosenBillingMode(values)!;
  const dataDir = path.resolve(values.DATA_DIR);
  const appUrl = (values.APP_URL ?? `http://localhost:${values.PORT}`).replace(/\/$/, "");
  return {
    env: values.NODE_ENV,
    port: values.PORT,
    host: values.HOST,
    appUrl,
    appOrigin: new URL(appUrl).origin,
    allowedOrigins: allowedOrigins(appUrl),
    secureCookies: appUrl.startsWith("https://"),
    dataDir,
    databaseUrl: values.DATABASE_URL,
    sessionSecret: values.SESSION_SECRET ?? persistedSecret(dataDir),
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM,
    billingMode,
    stripe:
      billingMode === "stripe"
        ? {
            secretKey: values.STRIPE_SECRET_KEY!,
            webhookSecret: values.STRIPE_WEBHOOK_SECRET!,
            apiBase: values.STRIPE_API_BASE,
          }
        : undefined,
    google:
      values.GOOGLE_CLIENT_ID && values.GOOGLE_CLIENT_SECRET
        ? {
            clientId: values.GOOGLE_CLIENT_ID,
            clientSecret: values.GOOGLE_CLIENT_SECRET,
            issuer: values.GOOGLE_ISSUER,
          }
        : undefined,
    s3: s3Settings(values),
    trustProxy: values.TRUST_PROXY,
    metricsToken: values.METRICS_TOKEN,
    logLevel: values.LOG_LEVEL,
    inboundMail:
      values.INBOUND_SMTP_PORT !== undefined && values.INBOUND_EMAIL_DOMAIN
        ? {
            port: values.INBOUND_SMTP_PORT,
            host: values.INBOUND_SMTP_HOST ?? values.HOST,
            domain: values.INBOUND_EMAIL_DOMAIN.toLowerCase(),
            authservId: values.INBOUND_AUTHSERV_ID,
          }
        : undefined,
    vapid: {
      ...(values.VAPID_PUBLIC_KEY && values.VAPID_PRIVATE_KEY
        ? { publicKey: values.VAPID_PUBLIC_KEY, privateKey: values.VAPID_PRIVATE_KEY }
        : persistedVapidKeys(dataDir)),
      subject: values.VAPID_SUBJECT ?? vapidSubject(values.MAIL_FROM),
    },
    pushTestOrigins:
      values.NODE_ENV === "production" ? [] : pushTestOrigins(values.PUSH_TEST_ORIGINS),
    exportInlineMaxBytes: values.EXPORT_INLINE_MAX_BYTES ?? DEFAULT_EXPORT_INLINE_MAX_BYTES,
  };
}

type EnvValues = z.infer<typeof envSchema>;

/** BILLING_MODE, or what it defaults to; undefined when production has no safe default. */
function chosenBillingMode(values: EnvValues): BillingMode | undefined {
  if (values.BILLING_MODE) return values.BILLING_MODE;
  if (values.STRIPE_SECRET_KEY) return "stripe";
  return values.NODE_ENV === "production" ? undefined : "test";
}

/**
 * Settings that parse but cannot work together, one line each. The server fails closed at
 * start-up rather than open (free upgrades, codes in the log) or at the first sign-in.
 */
function startupRefusals(values: EnvValues): string[] {
  const lines: string[] = [];
  const production = values.NODE_ENV === "production";
  const mode = chosenBillingMode(values);
  if (!mode) {
    lines.push(
      "BILLING_MODE: set stripe (with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET), test or off",
    );
  } else if (mode === "stripe" && (!values.STRIPE_SECRET_KEY || !values.STRIPE_WEBHOOK_SECRET)) {
    lines.push("BILLING_MODE: stripe needs both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET");
  } else if (mode !== "stripe" && (values.STRIPE_SECRET_KEY || values.STRIPE_WEBHOOK_SECRET)) {
    lines.push(`BILLING_MODE: ${mode} does not use the Stripe keys; unset them or choose stripe`);
  }
  if (production && !values.SMTP_URL) {
    lines.push("SMTP_URL: required in production (codes and sign-in links go by mail)");
  }
  if (values.APP_URL?.startsWith("https://") && !values.TRUST_PROXY) {
    lines.push(
      "TRUST_PROXY: APP_URL is https, so a TLS proxy is in front: set TRUST_PROXY=true (secure cookies need it)",
    );
  }
  if (values.GOOGLE_ISSUER) {
    const issuer = new URL(values.GOOGLE_ISSUER);
    if (issuer.protocol !== "https:" && !allowsPlainHttp(issuer))
      lines.push("GOOGLE_ISSUER: must be https (plain http only on a loopback host, for tests)");
  }
  lines.push(...s3Refusals(values));
  lines.push(...inboundRefusals(values));
  if (Boolean(values.VAPID_PUBLIC_KEY) !== Boolean(values.VAPID_PRIVATE_KEY))
    lines.push(
      `${values.VAPID_PUBLIC_KEY ? "VAPID_PRIVATE_KEY" : "VAPID_PUBLIC_KEY"}: set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither (generated into DATA_DIR)`,
    );
  else if (
    values.VAPID_PUBLIC_KEY &&
    !isVapidPair(values.VAPID_PUBLIC_KEY, values.VAPID_PRIVATE_KEY!)
  )
    lines.push(
      "VAPID_PUBLIC_KEY: must be a P-256 public key (65 bytes, base64url) and VAPID_PRIVATE_KEY its 32-byte private key, as `npx web-push generate-vapid-keys` prints them",
    );
  if (values.PUSH_TEST_ORIGINS) {
    if (production) lines.push("PUSH_TEST_ORIGINS: tests only; unset it in production");
    else if (pushTestOrigins(values.PUSH_TEST_ORIGINS).length === 0)
      lines.push(
        "PUSH_TEST_ORIGINS: must be http origins on a loopback host, e.g. http://127.0.0.1:9000",
      );
  }
  return lines;
}

const INBOUND_SETTINGS = ["INBOUND_SMTP_HOST", "INBOUND_AUTHSERV_ID", "INBOUND_AUTH"] as const;

/**
 * Reply by email needs its port and domain together, and in production proof of the sender
 * (INBOUND_AUTHSERV_ID) unless INBOUND_AUTH=off says otherwise: a reply address and a
 * person's address are all a forger would need. A setting nothing reads is refused too.
 */
function inboundRefusals(values: EnvValues): string[] {
  const hasPort = values.INBOUND_SMTP_PORT !== undefined;
  if (!hasPort && !values.INBOUND_EMAIL_DOMAIN) {
    const set = INBOUND_SETTINGS.filter((name) => values[name]);
    return set.length > 0
      ? [`INBOUND_SMTP_PORT: required with ${set.join(", ")} (or unset them: no reply by email)`]
      : [];
  }
  if (!hasPort || !values.INBOUND_EMAIL_DOMAIN)
    return [
      `${hasPort ? "INBOUND_EMAIL_DOMAIN" : "INBOUND_SMTP_PORT"}: set both INBOUND_SMTP_PORT and INBOUND_EMAIL_DOMAIN, or neither (no reply by email)`,
    ];
  if (values.INBOUND_AUTH === "off" && values.INBOUND_AUTHSERV_ID)
    return ["INBOUND_AUTH: off ignores INBOUND_AUTHSERV_ID; unset one of them"];
  if (
    values.NODE_ENV === "production" &&
    !values.INBOUND_AUTHSERV_ID &&
    values.INBOUND_AUTH !== "off"
  )
    return [
      "INBOUND_AUTHSERV_ID: required in production with reply by email (the authserv-id of your relay's Authentication-Results), or set INBOUND_AUTH=off to take unauthenticated replies",
    ];
  return [];
}

/** The loopback origins of PUSH_TEST_ORIGINS; any other entry makes the list empty (refused above). */
function pushTestOrigins(value: string | undefined): string[] {
  if (!value) return [];
  const origins: string[] = [];
  for (const entry of value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)) {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      return [];
    }
    if (!allowsPlainHttp(url)) return [];
    origins.push(url.origin);
  }
  return origins;
}

const S3_SETTINGS = [
  "S3_ENDPOINT",
  "S3_REGION",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
  "S3_FORCE_PATH_STYLE",
] as const;

/** An S3 setting without S3_BUCKET would be read by nothing: files would silently stay on disk. */
function s3Refusals(values: EnvValues): string[] {
  const lines: string[] = [];
  if (!values.S3_BUCKET) {
    const set = S3_SETTINGS.filter((name) => values[name]);
    if (set.length > 0)
      lines.push(
        `S3_BUCKET: required with ${set.join(", ")} (or unset them to keep files under DATA_DIR)`,
      );
    return lines;
  }
  if (Boolean(values.S3_ACCESS_KEY_ID) !== Boolean(values.S3_SECRET_ACCESS_KEY))
    lines.push(
      `${values.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"}: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the SDK's own credentials)`,
    );
  return lines;
}

function s3Settings(values: EnvValues): S3Settings | undefined {
  if (!values.S3_BUCKET) return undefined;
  return {
    bucket: values.S3_BUCKET,
    endpoint: values.S3_ENDPOINT,
    region: values.S3_REGION ?? "us-east-1",
    credentials:
      values.S3_ACCESS_KEY_ID && values.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: values.S3_ACCESS_KEY_ID, secretAccessKey: values.S3_SECRET_ACCESS_KEY }
        : undefined,
    forcePathStyle: values.S3_FORCE_PATH_STYLE === "true",
  };
}

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/** Plain http only for an issuer on this machine (the tests' mock), never over a network. */
export function allowsPlainHttp(issuer: URL): boolean {
  if (issuer.protocol !== "http:") return false;
  const host = issuer.hostname;
  return host === "localhost" || host === "[::1]" || (isIPv4(host) && host.startsWith("127."));
}

/** http://localhost:3000 is also reached as 127.0.0.1:3000; both are the same local app. */
function allowedOrigins(appUrl: string): string[] {
  const url = new URL(appUrl);
  if (!LOOPBACK_HOSTS.includes(url.hostname)) return [url.origin];
  return LOOPBACK_HOSTS.map((host) => `${url.protocol}//${host}${url.port ? `:${url.port}` : ""}`);
}

export class ConfigError extends Error {
  constructor(readonly lines: string[]) {
    super(`Invalid configuration:\n${lines.map((line) => `  ${line}`).join("\n")}`);
  }
}

/** The bare address of MAIL_FROM ("Name <address>" or an address). */
export function mailFromAddress(mailFrom: string): string {
  return (/<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom).trim();
}

/** The push services' contact: VAPID_SUBJECT, else the address of MAIL_FROM. */
function vapidSubject(mailFrom: string): string {
  return `mailto:${mailFromAddress(mailFrom)}`;
}

function isVapidPair(publicKey: string, privateKey: string): boolean {
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(Buffer.from(privateKey, "base64url"));
    return ecdh.getPublicKey().equals(Buffer.from(publicKey, "base64url"));
  } catch {
    return false;
  }
}

/**
 * A VAPID key pair generated once and kept (mode 0600) in DATA_DIR, so subscriptions survive
 * restarts. Several instances must share one pair: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY.
 */
function persistedVapidKeys(dataDir: string): { publicKey: string; privateKey: string } {
  const file = path.join(dataDir, "vapid-keys.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
  mkdirSync(dataDir, { recursive: true });
  const keys = webpush.generateVAPIDKeys();
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return keys;
}

/** A secret generated once and kept (mode 0600) in DATA_DIR, so sessions survive restarts. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return secret;
}
