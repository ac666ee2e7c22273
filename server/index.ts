import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createApp } from "./app";
import { ConfigError, loadConfig } from "./config";
import { createDatabase } from "./db/connection";
import { migrateToLatest } from "./db/migrate";
import { receiveEmailReply } from "./commands/receive-email-reply";
import { type InboundSmtp, startInboundSmtp } from "./inbound/smtp-listener";
import { JOBS } from "./jobs";
import { startJobs } from "./jobs/job-runner";
import { bufferedLogDestination } from "./log-destination";
import { InFlightRequests } from "./lifecycle/in-flight-requests";
import { ListenError, listen } from "./lifecycle/listen";
import { exitOnSignals } from "./lifecycle/shutdown";
import { createLogger } from "./logger";
import { attachRealtimeSockets } from "./realtime/socket-server";

/** Standard output, buffered (log-destination.ts): written out before every exit below. */
const logLines = bufferedLogDestination();

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const line of error.lines) console.error(`config error: ${line}`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel, logLines);
  const db = createDatabase({
    url: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, "pglite"),
    logger,
  });
  await migrateToLatest(db);
  const { app, services } = createApp({ config, db, logger });
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  const requests = new InFlightRequests(server);
  // /ws on the same server; PostgreSQL: listening for other instances' events before serving.
  const sockets = attachRealtimeSockets(server, services);
  await services.realtime.start();
  // HTTP first: a HOST that cannot work is named as HOST. Then reply by email
  // (INBOUND_SMTP_PORT): the product's own SMTP listener (server/inbound).
  let inbound: InboundSmtp | undefined;
  try {
    await listen(server, {
      port: config.port,
      host: config.host,
      portSetting: "PORT",
      hostSetting: "HOST",
    });
    if (config.inboundMail)
      inbound = await startInboundSmtp(services, config.inboundMail, receiveEmailReply);
  } catch (error) {
    if (!(error instanceof ListenError)) throw error;
    // One line, as for a configuration error; the database is closed cleanly first.
    console.error(`listen error: ${error.message}`);
    server.close();
    await services.realtime.close();
    await db.destroy();
    logLines.flushSync();
    process.exit(1);
  }
  const jobs = startJobs(services, JOBS);
  // The port it really took (PORT=0 picks a free one); APP_URL too when it names another address.
  const { port } = server.address() as AddressInfo;
  const local = `http://${localName(config.host)}:${port}`;
  logger.info(
    {
      port,
      host: config.host ?? "(every interface)",
      database: config.databaseUrl ? "postgres" : "pglite",
      dataDir: config.dataDir,
    },
    config.appUrl === local
      ? `ClientDesk listening on ${local}`
      : `ClientDesk listening on ${local} (public address ${config.appUrl})`,
  );
  // SIGTERM drains (server/lifecycle/drain.ts) and exits 0 within 10 s.
  exitOnSignals({ server, services, sockets, jobs, requests, inbound }, logger, logLines);
}

/** How this machine reaches the server: localhost, unless HOST names one address. */
function localName(host: string | undefined): string {
  if (!host || host === "0.0.0.0" || host === "::") return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}

main().catch((error) => {
  console.error(error);
  logLines.flushSync();
  process.exit(1);
});
