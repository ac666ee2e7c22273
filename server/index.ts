import http from "node:http";
import path from "node:path";
import { createApp } from "./app";
import { ConfigError, loadConfig } from "./config";
import { createDatabase } from "./db/connection";
import { migrateToLatest } from "./db/migrate";
import { JOBS } from "./jobs";
import { startJobs } from "./jobs/job-runner";
import { bufferedLogDestination } from "./log-destination";
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
  const db = createDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, "pglite"), logger });
  await migrateToLatest(db);
  const { app, services } = createApp({ config, db, logger });
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  // /ws on the same server; PostgreSQL: listening for other instances' events before serving.
  const sockets = attachRealtimeSockets(server, services);
  await services.realtime.start();
  const jobs = startJobs(services, JOBS);
  server.listen(config.port, () => {
    logger.info(
      { port: config.port, database: config.databaseUrl ? "postgres" : "pglite", dataDir: config.dataDir },
      `ClientDesk listening on ${config.appUrl}`,
    );
  });

  let stopping = false;
  // Behind a proxy every connection is kept alive, and Node keeps one that was busy when
  // close() came for keepAliveTimeout (65 s): the exit would wait for it. While stopping, a
  // request is answered with Connection: close and a connection goes once its answer is out.
  server.on("request", (_req, res) => {
    if (stopping) res.shouldKeepAlive = false;
    res.once("finish", () => {
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
  });
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const forced = setTimeout(() => {
      logLines.flushSync();
      process.exit(1);
    }, 10_000);
    forced.unref();
    const closed = new Promise((resolve) => server.once("close", resolve));
    server.close();
    server.closeIdleConnections();
    await sockets.close();
    await closed;
    await jobs.stop();
    await services.afterAnswer.idle();
    services.mailer.close();
    await services.realtime.close();
    await db.destroy();
    logger.info("stopped");
    // Waits for a write still under way too, which flushSync() would leave behind.
    logger.flush(() => process.exit(0));
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error) => {
  console.error(error);
  logLines.flushSync();
  process.exit(1);
});
