import { randomBytes } from "node:crypto";
import { hashToken } from "./sessions";

/** Team invites: 256-bit random tokens, kept only as their SHA-256 (never in clear). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newTeamInviteToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token) };
}

export const hashTeamInviteToken = (token: string) => hashToken(token);

/** Whether a string can be a team invite token at all (anything else is refused without a query). */
export const isWellFormedTeamInviteToken = (token: string) => TOKEN_PATTERN.test(token);

/** The join page of the web app (web/src/team/join-team-page.tsx). */
export const teamInviteUrl = (appUrl: string, token: string) => `${appUrl}/team/invite/${token}`;
