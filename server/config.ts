import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIPv4 } from "node:net";
import path from "node:path";
import { z } from "zod";
import { BILLING_MODES, type BillingMode } from "../shared/billing-mode";

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === "" ? undefined : value));

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  APP_URL: optionalString.pipe(z.url({ error: "must be a URL such as http://localhost:3000" }).optional()),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: optionalString.pipe(
    z.string().regex(/^postgres(ql)?:\/\//, "must start with postgres://").optional(),
  ),
  SESSION_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  SMTP_URL: optionalString.pipe(z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional()),
  MAIL_FROM: z.string().default("ClientDesk <no-reply@localhost>"),
  /** stripe | test | off; unset: stripe with STRIPE_SECRET_KEY, else test outside production. */
  BILLING_MODE: optionalString.pipe(
    z.enum(BILLING_MODES, { error: "must be stripe, test or off" }).optional(),
  ),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Another Stripe API address (e.g. http://127.0.0.1:12111 for a local stand-in in tests). */
  STRIPE_API_BASE: optionalString.pipe(z.url({ error: "must be a URL such as http://127.0.0.1:12111" }).optional()),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  /** Where Google's OpenID configuration lives; tests point it at oauth2-mock-server. */
  GOOGLE_ISSUER: z.url().default("https://accounts.google.com"),
  S3_ENDPOINT: optionalString,
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  TRUST_PROXY: z
    .enum(["true", "false", ""])
    .default("false")
    .transform((value) => value === "true"),
  /** Bearer token for GET /metrics; unset: /metrics answers 404. */
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, "must be at least 16 characters").optional()),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type { BillingMode };

export interface Config {
  env: "development" | "production" | "test";
  port: number;
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
  trustProxy: boolean;
  /** The bearer token /metrics asks for; unset: no /metrics. */
  metricsToken?: string;
  logLevel: string;
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
    trustProxy: values.TRUST_PROXY,
    metricsToken: values.METRICS_TOKEN,
    logLevel: values.LOG_LEVEL,
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
  const s3 = (["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const).filter(
    (name) => values[name],
  );
  if (s3.length > 0) {
    lines.push(`${s3[0]}: object storage is not supported yet; unset ${s3.join(", ")} (files are kept under DATA_DIR)`);
  }
  return lines;
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
