import path from "node:path";
import Koa from "koa";
import { ClientCache } from "./db/client-cache";
import { SessionStore } from "./auth/session-store";
import { sessions } from "./auth/sessions";
import type { Config } from "./config";
import { type Clock, systemClock } from "./clock";
import type { Services } from "./context";
import type { Database } from "./db/connection";
import { DomainEvents } from "./domain-events/domain-events";
import { EVENT_LISTENERS } from "./events";
import type { Logger } from "./logger";
import { DrainState } from "./lifecycle/drain-state";
import { createMailer, type Mailer } from "./mail/mailer";
import { MailOutbox } from "./mail/outbox";
import { AppMetrics } from "./metrics/app-metrics";
import { countedMailer } from "./metrics/counted-mailer";
import { compressAnswers } from "./middlewares/compress-answers";
import { requestBody } from "./middlewares/request-body";
import { requestFrame } from "./middlewares/request-frame";
import { webApp } from "./middlewares/web-app";
import { probePages } from "./routes/health";
import { metricsFramePage } from "./routes/metrics";
import authRoutes from "./routes/api/auth";
import clientRoutes from "./routes/api/clients";
import deletedClientRoutes from "./routes/api/deleted-clients";
import languageRoutes from "./routes/api/languages";
import teamRoutes from "./routes/api/team";
import contactRoutes from "./routes/api/contacts";
import inviteRoutes from "./routes/api/invites";
import portalBrandingRoutes from "./routes/api/portal-branding";
import messageRoutes from "./routes/api/messages";
import scheduledMessageRoutes from "./routes/api/scheduled-messages";
import downloadRoutes from "./routes/api/downloads";
import fileRoutes from "./routes/api/files";
import approvalRecordRoutes from "./routes/api/approval-record";
import annotationRoutes from "./routes/api/annotations";
import dueDateRoutes from "./routes/api/due-dates";
import messageChangeRoutes from "./routes/api/message-changes";
import feedbackLinkRoutes from "./routes/api/feedback-links";
import userRoutes from "./routes/api/user";
import portalRoutes from "./routes/api/portal";
import exportRoutes from "./routes/api/exports";
import dashboardRoutes from "./routes/api/dashboard";
import userImageRoutes from "./routes/api/user-images";
import subscriptionRoutes from "./routes/api/subscription";
import searchRoutes from "./routes/api/search";
import savedReplyRoutes from "./routes/api/saved-replies";
import billingModeRoutes from "./routes/api/billing-mode";
import pushRoutes from "./routes/api/push";
import stripeWebhookRoutes, { STRIPE_WEBHOOK_PATH } from "./routes/api/stripe-webhook";
import billingTestModeRoutes from "./routes/billing-test-mode";
import googleRoutes from "./routes/google";
import googleDesktopConfirmationRoutes from "./routes/google-desktop-confirmation";
import devMailRoutes from "./routes/dev-mail";
import { mountRoutes } from "./routes/mount-routes";
import { SocketPresence } from "./push/presence";
import { createRealtimeHub } from "./realtime/create-hub";
import type { RealtimeHub } from "./realtime/hub";
import { AfterAnswerQueue } from "./security/after-answer";
import { createRateLimiter, type RateLimiter } from "./security/rate-limiter";
import { createStorage } from "./storage/create-storage";
import type { Storage } from "./storage/storage";

export interface AppOptions {
  config: Config;
  db: Database;
  logger: Logger;
  clock?: Clock;
  mailer?: Mailer;
  storage?: Storage;
  realtime?: RealtimeHub;
  /** Defaults to the database's (shared on PostgreSQL); tests give each server its own keys. */
  rateLimiter?: RateLimiter;
  /**
   * The queue of the mail outbox (server/mail/outbox.ts) and of the domain events' job
   * (server/domain-events); tests give each app its own.
   */
  mailQueue?: string;
  /** Built web assets; defaults to dist/web. */
  webDir?: string;
}

export function createApp(options: AppOptions) {
  const { config, db, logger } = options;
  const clock = options.clock ?? systemClock;
  // Starts connecting at once (PostgreSQL: the LISTEN connection); await realtime.start() to
  // know it is listening. The caller closes it (realtime.close()) on shutdown.
  const realtime = options.realtime ?? createRealtimeHub({ config, db, logger });
  void realtime.start();
  const sessionStore = new SessionStore(db, clock, realtime);
  const metrics = new AppMetrics();
  const afterAnswer = new AfterAnswerQueue(logger);
  metrics.countEmailQueue(() => afterAnswer.size);
  const mailer = countedMailer(
    options.mailer ??
      createMailer({
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        mailboxDir: path.join(config.dataDir, "mail"),
        logger,
        production: config.env === "production",
      }),
    metrics,
  );
  const events = new DomainEvents<Services>({ db, clock, logger, queue: options.mailQueue });
  const outbox = new MailOutbox({ db, mailer, clock, logger, queue: options.mailQueue });
  metrics.countMailOutbox(() => outbox.depth());
  const services: Services = {
    config,
    db,
    logger,
    clock,
    outbox,
    storage: options.storage ?? createStorage(config),
    rateLimiter: options.rateLimiter ?? createRateLimiter(db),
    afterAnswer,
    realtime,
    presence: new SocketPresence({ db, clock, logger }),
    events,
    sessions: sessionStore,
    sessionCache: sessionStore.cache,
    clientCache: new ClientCache(db, realtime),
    metrics,
    drain: new DrainState(),
  };

  events.listen(services, EVENT_LISTENERS);

  const app = new Koa<Koa.DefaultState, { services: Services }>({ proxy: config.trustProxy });
  app.context.services = services;
  app.silent = true;

  app.use(
    requestFrame({
      appOrigin: config.appOrigin,
      allowedOrigins: config.allowedOrigins,
      secureCookies: config.secureCookies,
      rawBodyPaths: [STRIPE_WEBHOOK_PATH],
      pages: [...probePages, metricsFramePage],
    }),
  );
  app.use(compressAnswers());
  app.use(sessions(app, services));
  app.use(requestBody([STRIPE_WEBHOOK_PATH]));
  mountRoutes(app, [
    authRoutes,
    userRoutes,
    googleRoutes,
    googleDesktopConfirmationRoutes,
    userImageRoutes,
    downloadRoutes,
    deletedClientRoutes,
    languageRoutes,
    clientRoutes,
    teamRoutes,
    contactRoutes,
    // Before the routes of sent messages: PATCH and DELETE /api/messages/:id fall through to them.
    scheduledMessageRoutes,
    messageRoutes,
    // Before portalRoutes: /api/portal/export is a fixed word where /api/portal/:clientId is.
    exportRoutes,
    portalRoutes,
    dashboardRoutes,
    inviteRoutes,
    portalBrandingRoutes,
    fileRoutes,
    approvalRecordRoutes,
    annotationRoutes,
    dueDateRoutes,
    messageChangeRoutes,
    feedbackLinkRoutes,
    subscriptionRoutes,
    billingModeRoutes,
    pushRoutes,
    stripeWebhookRoutes,
    billingTestModeRoutes,
    searchRoutes,
    savedReplyRoutes,
    // The dev mailbox page: never in production, where mail is real people's.
    ...(config.env !== "production" ? [devMailRoutes] : []),
  ]);
  app.use(webApp(options.webDir ?? path.resolve("dist/web")));

  return { app, services };
}
