import type { ParameterizedContext } from "koa";
import type { Language } from "../shared/i18n/languages";
import type { Clock } from "./clock";
import type { Config } from "./config";
import type { Database } from "./db/connection";
import type { DomainEvents } from "./domain-events/domain-events";
import type { DrainState } from "./lifecycle/drain-state";
import type { Logger } from "./logger";
import type { MailOutbox } from "./mail/outbox";
import type { AppMetrics } from "./metrics/app-metrics";
import type { Session, User } from "./models";
import type { ClientCache } from "./db/client-cache";
import type { SessionCache } from "./auth/session-cache";
import type { SessionStore } from "./auth/session-store";
import type { SocketPresence } from "./push/presence";
import type { RealtimeHub } from "./realtime/hub";
import type { AfterAnswerQueue } from "./security/after-answer";
import type { RateLimiter } from "./security/rate-limiter";
import type { Storage } from "./storage/storage";

/** Everything the server's parts need, built once in createApp and passed down. */
export interface Services {
  config: Config;
  db: Database;
  logger: Logger;
  /** Every outgoing email goes through it (server/mail/outbox.ts): durable, sent after commit. */
  outbox: MailOutbox;
  storage: Storage;
  clock: Clock;
  rateLimiter: RateLimiter;
  /** Per-account work of public endpoints, run after their answer (server/security/after-answer.ts). */
  afterAnswer: AfterAnswerQueue;
  realtime: RealtimeHub;
  /** Who has an open socket, here and on the other instances (server/push/presence.ts). */
  presence: SocketPresence;
  /** Commands record what happened here; listeners run after commit (server/events). */
  events: DomainEvents<Services>;
  /** Sessions (koa-session's store): the websocket and sign-out-everywhere use it too. */
  sessions: SessionStore;
  /** The store's cache of session and user (tests empty it to count queries). */
  sessionCache: SessionCache;
  /** Rows of clients as findClient reads them (server/queries/client-cache.ts). */
  clientCache: ClientCache;
  /** This app's Prometheus metrics (a registry of its own), served on /metrics. */
  metrics: AppMetrics;
  /** Set once a shutdown starts (server/lifecycle). */
  drain: DrainState;
}

export interface AppState {
  user?: User;
  session?: Session;
  /** The language of this request's answers, once known (server/i18n/request-language.ts). */
  language?: Language;
}

/** What the app uses of koa-session's ctx.session (its package exports no type for it). */
export interface KoaSession {
  userId?: string;
  save(): Promise<void>;
  regenerate(): Promise<void>;
  manuallyCommit(): Promise<void>;
}

/** What the app adds to Koa's context: its services, and koa-session's session. */
export interface AppContextExtras {
  services: Services;
  session: KoaSession | null;
  /** koa-compress: false keeps this answer as it is (server/middlewares/compress-answers.ts). */
  compress?: boolean;
}

export type AppContext = ParameterizedContext<AppState, AppContextExtras>;
