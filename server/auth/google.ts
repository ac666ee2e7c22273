import * as oidc from "openid-client";
import { z } from "zod";
import { allowsPlainHttp, type Config } from "../config";
import { type DesktopHandOff, PENDING_TTL_MS, type PendingSignIn } from "./google-sign-in-state";

/**
 * Google sign-in as an OpenID Connect relying party, through openid-client: discovery, the
 * authorization code flow with PKCE (S256), state and nonce, and the ID token checks
 * (signature against the issuer's published keys, alg RS256, issuer, audience, expiry, nonce).
 * What stays here is our own rule: only a verified email signs in.
 */

export type GoogleConfig = NonNullable<Config["google"]>;

/** Why a sign-in failed; logged, never shown (the browser only sees /auth?error=google). */
export class GoogleSignInError extends Error {}

export interface GoogleIdentity {
  subject: string;
  email: string;
  name: string | null;
}

const SCOPE = "openid email profile";
const TIMEOUT_SECONDS = 10;

// Checked at start-up too (config.ts); its tests import it from here.
export { allowsPlainHttp };

/**
 * One discovery per configured Google client, kept for the life of the app: the
 * Configuration also caches the issuer's key set (refetched by the library on an unknown key).
 */
const discovered = new WeakMap<GoogleConfig, Promise<oidc.Configuration>>();

function googleClient(google: GoogleConfig): Promise<oidc.Configuration> {
  const cached = discovered.get(google);
  if (cached) return cached;
  const issuer = new URL(google.issuer);
  const configuration = oidc.discovery(
    issuer,
    google.clientId,
    { id_token_signed_response_alg: "RS256" },
    oidc.ClientSecretPost(google.clientSecret),
    {
      timeout: TIMEOUT_SECONDS,
      execute: [
        // Also check the ID token's signature against the issuer's keys: the library's default
        // trusts TLS to the token endpoint instead, which a loopback-http issuer lacks.
        oidc.enableNonRepudiationChecks,
        ...(allowsPlainHttp(issuer) ? [oidc.allowInsecureRequests] : []),
      ],
    },
  );
  discovered.set(google, configuration);
  // A failed discovery is not remembered: the next sign-in tries again.
  configuration.catch(() => {
    if (discovered.get(google) === configuration) discovered.delete(google);
  });
  return configuration;
}

/** Builds the authorization request; the caller keeps `pending` in the state cookie. */
export async function startGoogleSignIn(
  google: GoogleConfig,
  redirectUri: string,
  now: Date,
  desktop?: DesktopHandOff,
): Promise<{ url: string; pending: PendingSignIn }> {
  const configuration = await googleClient(google);
  const pending: PendingSignIn = {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    verifier: oidc.randomPKCECodeVerifier(),
    expiresAt: now.getTime() + PENDING_TTL_MS,
    ...(desktop ? { desktop } : {}),
  };
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: SCOPE,
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: "S256",
    // Desktop: the user picks the account on Google's page, even when one is signed in.
    ...(desktop ? { prompt: "select_account" } : {}),
  });
  return { url: url.href, pending };
}

const identityClaims = z.object({
  sub: z.string().min(1).max(255),
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  email_verified: z.literal(true),
  name: z.string().optional(),
});

/** openid-client's errors carry a code, and an OAuth error name when the server sent one. */
type LibraryError = Error & { code?: string; error?: string };

/** Why openid-client refused: its message, the detail it wraps, and its error code. */
function refusal(error: unknown): GoogleSignInError {
  const { message, cause, code, error: oauthError } = error as LibraryError;
  const detail = [cause instanceof Error ? cause.message : null, code, oauthError];
  const reason = [...new Set([message, ...detail.filter(Boolean)])].join("; ");
  return new GoogleSignInError(reason, { cause: error });
}

/**
 * Checks the callback (state, error, iss) against the pending sign-in, exchanges the code
 * for tokens with the PKCE verifier and verifies the ID token. Throws GoogleSignInError.
 * `callbackUrl` is the redirect URI with the callback's query: the library sends it back
 * without the query as the token request's redirect_uri.
 */
export async function finishGoogleSignIn(
  google: GoogleConfig,
  callbackUrl: URL,
  pending: PendingSignIn,
): Promise<GoogleIdentity> {
  let claims: oidc.IDToken | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(await googleClient(google), callbackUrl, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
    });
    claims = tokens.claims();
  } catch (error) {
    throw refusal(error);
  }
  const parsed = identityClaims.safeParse(claims);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join(".")).join(", ");
    throw new GoogleSignInError(`id_token claims refused: ${fields}`);
  }
  const { sub, email, name } = parsed.data;
  return { subject: sub, email, name: name?.trim() || null };
}
