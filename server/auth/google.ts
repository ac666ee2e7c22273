import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from "jose";
import { z } from "zod";
import type { Config } from "../config";

/**
 * Google sign-in as an OpenID Connect relying party: authorization code flow with PKCE (S256),
 * state and nonce. The flow keeps no server state: what the callback needs travels in a
 * short-lived cookie, HMACed with a key derived from the session secret.
 */

export type GoogleConfig = NonNullable<Config["google"]>;

/** Why a sign-in failed; logged, never shown (the browser only sees /auth?error=google). */
export class GoogleSignInError extends Error {}

export interface GoogleIdentity {
  subject: string;
  email: string;
  name: string | null;
}

/** What the callback must find again: kept in the state cookie between the two requests. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export const PENDING_TTL_MS = 10 * 60 * 1000;
const FETCH_TIMEOUT_MS = 10_000;
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const SCOPE = "openid email profile";
/** Google signs ID tokens with RS256; anything else (including "none") is refused. */
const ALGORITHMS = ["RS256"];

// ---------------------------------------------------------------------------------------------
// Discovery, cached per issuer

const providerMetadata = z.object({
  issuer: z.string().min(1),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
});
type ProviderMetadata = z.infer<typeof providerMetadata>;

interface Provider {
  metadata: ProviderMetadata;
  jwks: ReturnType<typeof createRemoteJWKSet>;
}

const providers = new Map<string, { provider: Promise<Provider>; expiresAt: number }>();

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, "");

/** The issuer's OpenID configuration and key set, fetched once an hour at most. */
export function discover(issuer: string): Promise<Provider> {
  const key = withoutTrailingSlash(issuer);
  const cached = providers.get(key);
  if (cached && cached.expiresAt > Date.now()) return cached.provider;
  const provider = fetchProvider(key);
  providers.set(key, { provider, expiresAt: Date.now() + DISCOVERY_TTL_MS });
  // A failed discovery is not remembered: the next sign-in tries again.
  provider.catch(() => {
    if (providers.get(key)?.provider === provider) providers.delete(key);
  });
  return provider;
}

async function fetchProvider(issuer: string): Promise<Provider> {
  const response = await fetch(`${issuer}/.well-known/openid-configuration`, {
    headers: { accept: "application/json" },
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  if (!response.ok) throw new GoogleSignInError(`discovery answered ${response.status}`);
  const parsed = providerMetadata.safeParse(await response.json());
  if (!parsed.success) throw new GoogleSignInError("discovery document is malformed");
  const metadata = parsed.data;
  // OpenID Connect Discovery 1.0, section 4.3: the document must name the issuer we asked.
  if (withoutTrailingSlash(metadata.issuer) !== issuer) {
    throw new GoogleSignInError(`discovery names issuer ${metadata.issuer}, expected ${issuer}`);
  }
  return {
    metadata,
    jwks: createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: FETCH_TIMEOUT_MS }),
  };
}

// ---------------------------------------------------------------------------------------------
// The state cookie

const randomToken = () => randomBytes(32).toString("base64url");

function cookieKey(sessionSecret: string): Buffer {
  // A key of its own, so that this MAC can never be confused with another use of the secret.
  return createHmac("sha256", sessionSecret).update("clientdesk google sign-in state v1").digest();
}

function mac(payload: string, sessionSecret: string): string {
  return createHmac("sha256", cookieKey(sessionSecret)).update(payload).digest("base64url");
}

/** Compares two strings in constant time (over their hashes, so lengths may differ). */
export function safeEqual(a: string, b: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

export function sealPending(pending: PendingSignIn, sessionSecret: string): string {
  const payload = Buffer.from(JSON.stringify(pending)).toString("base64url");
  return `${payload}.${mac(payload, sessionSecret)}`;
}

const pendingSchema = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  verifier: z.string().min(43).max(128),
  expiresAt: z.number(),
});

/** The pending sign-in in a cookie, or null when it is missing, forged or expired. */
export function openPending(
  cookie: string | undefined,
  sessionSecret: string,
  now: Date,
): PendingSignIn | null {
  if (!cookie || cookie.length > 1000) return null;
  const [payload, tag, ...rest] = cookie.split(".");
  if (!payload || !tag || rest.length) return null;
  if (!safeEqual(tag, mac(payload, sessionSecret))) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const parsed = pendingSchema.safeParse(decoded);
  if (!parsed.success || parsed.data.expiresAt <= now.getTime()) return null;
  return parsed.data;
}

// ---------------------------------------------------------------------------------------------
// The flow

/** Builds the authorization request; the caller keeps `pending` in the state cookie. */
export async function startGoogleSignIn(
  google: GoogleConfig,
  redirectUri: string,
  now: Date,
): Promise<{ url: string; pending: PendingSignIn }> {
  const { metadata } = await discover(google.issuer);
  const pending: PendingSignIn = {
    state: randomToken(),
    nonce: randomToken(),
    verifier: randomToken(),
    expiresAt: now.getTime() + PENDING_TTL_MS,
  };
  const url = new URL(metadata.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", google.clientId);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("scope", SCOPE);
  url.searchParams.set("state", pending.state);
  url.searchParams.set("nonce", pending.nonce);
  url.searchParams.set(
    "code_challenge",
    createHash("sha256").update(pending.verifier).digest("base64url"),
  );
  url.searchParams.set("code_challenge_method", "S256");
  return { url: url.href, pending };
}

const tokenResponse = z.object({ id_token: z.string().min(1) });

const idTokenClaims = z.object({
  sub: z.string().min(1).max(255),
  nonce: z.string(),
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  email_verified: z.literal(true),
  name: z.string().optional(),
  azp: z.string().optional(),
});

/**
 * Exchanges the code for tokens and verifies the ID token: signature against the issuer's key
 * set, issuer, audience, expiry, nonce and a verified email. Throws GoogleSignInError.
 */
export async function finishGoogleSignIn(
  google: GoogleConfig,
  input: { code: string; redirectUri: string; pending: PendingSignIn },
): Promise<GoogleIdentity> {
  const { metadata, jwks } = await discover(google.issuer);

  const response = await fetch(metadata.token_endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    // client_secret_post
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: input.code,
      redirect_uri: input.redirectUri,
      client_id: google.clientId,
      client_secret: google.clientSecret,
      code_verifier: input.pending.verifier,
    }),
    redirect: "error",
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  if (!response.ok) {
    const detail = await response.text().catch(() => "");
    throw new GoogleSignInError(
      `token endpoint answered ${response.status}: ${detail.slice(0, 200)}`,
    );
  }
  const tokens = tokenResponse.safeParse(await response.json().catch(() => null));
  if (!tokens.success) throw new GoogleSignInError("token response has no id_token");

  // Google's tokens name the issuer with or without the scheme.
  const issuers = [metadata.issuer];
  if (metadata.issuer === "https://accounts.google.com") issuers.push("accounts.google.com");
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(tokens.data.id_token, jwks, {
      issuer: issuers,
      audience: google.clientId,
      algorithms: ALGORITHMS,
      requiredClaims: ["sub", "exp", "iat"],
    }));
  } catch (error) {
    throw new GoogleSignInError(`id_token refused: ${(error as Error).message}`);
  }

  const claims = idTokenClaims.safeParse(payload);
  if (!claims.success) {
    const fields = claims.error.issues.map((issue) => issue.path.join(".")).join(", ");
    throw new GoogleSignInError(`id_token claims refused: ${fields}`);
  }
  const { sub, nonce, email, name, azp } = claims.data;
  if (!safeEqual(nonce, input.pending.nonce)) {
    throw new GoogleSignInError("id_token nonce does not match");
  }
  if (azp !== undefined && azp !== google.clientId) {
    throw new GoogleSignInError("id_token azp is another client");
  }
  return { subject: sub, email, name: name?.trim() || null };
}
