import type { ParameterizedContext } from "koa";
import type { Clock } from "./clock";
import type { Config } from "./config";
import type { Database } from "./db/connection";
import type { Logger } from "./logger";
import type { Mailer } from "./mail/mailer";
import type { Session, User } from "./models";
import type { SessionCache } from "./auth/session-cache";
import type { RealtimeHub } from "./realtime/hub";
import type { AfterAnswerQueue } from "./security/after-answer";
import type { RateLimiter } from "./security/rate-limiter";
import type { Storage } from "./storage/storage";


/** Everything the server's parts need, built once in createApp and passed down. */
export interface Services {
  config: Config;
  db: Database;
  logger: Logger;
  mailer: Mailer;
  storage: Storage;
  clock: Clock;
  rateLimiter: RateLimiter;
  /** Per-account work of public endpoints, run after their answer (server/security/after-answer.ts). */
  afterAnswer: AfterAnswerQueue;
  realtime: RealtimeHub;
  sessionCache: SessionCache;
}

export interface AppState {
  user?: User;
  session?: Session;
}

export type AppContext = ParameterizedContext<AppState, { services: Services }>;
