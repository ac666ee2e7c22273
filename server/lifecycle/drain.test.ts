import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { testDatabase } from "../../tests/support/database";
import { TestSmtpServer } from "../../tests/support/smtp";
import { createApp } from "../app";
import { loadConfig } from "../config";
import type { Job } from "../jobs/job";
import { startJobs } from "../jobs/job-runner";
import { createLogger } from "../logger";
import { attachRealtimeSockets } from "../realtime/socket-server";
import { drain } from "./drain";
import { InFlightRequests } from "./in-flight-requests";

/** A promise and the function that settles it. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), "clientdesk-drain-unit-"));
const smtp = new TestSmtpServer();
afterAll(async () => {
  await smtp.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The drain waits for the job pass under way and for mail queued after an answer, and only
 * then closes the port and the database. (The process-level drain, with sockets and an
 * upload, is tests/startup/drain.test.ts.)
 */
it("finishes the job pass under way and the queued after-answer mail before closing", async () => {
  const smtpUrl = await smtp.start();
  const db = await testDatabase({ isolated: true });
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({
    NODE_ENV: "test",
    APP_URL: url,
    DATA_DIR: dataDir,
    SESSION_SECRET: "drain-unit-secret-drain-unit-secret-42",
    SMTP_URL: smtpUrl,
    LOG_LEVEL: "silent",
  });
  const { app, services } = createApp({ config, db, logger: createLogger("silent") });
  server.on("request", app.callback());
  const requests = new InFlightRequests(server);
  const sockets = attachRealtimeSockets(server, services);
  await services.realtime.start();

  const passStarted = deferred();
  const releasePass = deferred();
  const releaseMail = deferred();
  const done: string[] = [];
  const slowJob: Job = {
    name: "slow-job",
    intervalMs: 60_000,
    runAtStart: true,
    async run() {
      passStarted.resolve();
      await releasePass.promise;
      done.push("job pass");
    },
  };
  const jobs = startJobs(services, [slowJob]);
  await passStarted.promise;
  services.afterAnswer.add("mail", async () => {
    await releaseMail.promise;
    await services.outbox.enqueue(
      services.db,
      {
        to: "someone@example.test",
        subject: "queued before the drain",
        text: "hello",
        html: "<p>hello</p>",
      },
      "verification",
    );
    done.push("mail");
  });

  let drained = false;
  const draining = drain({ server, services, sockets, jobs, requests }).then(() => {
    drained = true;
  });
  expect(services.drain.draining).toBe(true);
  expect((await fetch(`${url}/readyz`)).status).toBe(503);

  releasePass.resolve();
  await expect.poll(() => done).toEqual(["job pass"]);
  // The job pass is over, the mail is not: still draining, the port already closed.
  await expect.poll(() => server.listening).toBe(false);
  expect(drained).toBe(false);

  releaseMail.resolve();
  await draining;
  expect(done).toEqual(["job pass", "mail"]);
  expect((await smtp.waitFor("someone@example.test")).subject).toBe("queued before the drain");
  await expect(db.raw("select 1")).rejects.toThrow();
});
