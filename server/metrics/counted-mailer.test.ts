import { expect, it } from "vitest";
import { freePort } from "../../tests/support/server-process";
import { TestSmtpServer } from "../../tests/support/smtp";
import { createLogger } from "../logger";
import { createMailer } from "../mail/mailer";
import { AppMetrics } from "./app-metrics";
import { countedMailer } from "./counted-mailer";

const mail = { to: "someone@example.test", subject: "Hello", text: "hello", html: "<p>hello</p>" };
const count = async (metrics: AppMetrics, outcome: string) =>
  (await metrics.emails.get()).values.find((value) => value.labels.outcome === outcome)?.value ?? 0;

it("counts each mail handed to the SMTP server as sent, and each refused attempt as failed", async () => {
  const metrics = new AppMetrics();
  const smtp = new TestSmtpServer();
  const smtpUrl = await smtp.start();
  const logger = createLogger("silent");
  const working = countedMailer(
    createMailer({ smtpUrl, from: "x@example.test", mailboxDir: "", logger }),
    metrics,
  );
  // Nothing listens on this port: the connection is refused.
  const nowhere = `smtp://127.0.0.1:${await freePort()}`;
  const broken = countedMailer(
    createMailer({ smtpUrl: nowhere, from: "x@example.test", mailboxDir: "", logger }),
    metrics,
  );
  try {
    await working.send(mail);
    await expect(broken.send(mail)).rejects.toThrow();
    expect(await count(metrics, "sent")).toBe(1);
    expect(await count(metrics, "failed")).toBe(1);
  } finally {
    working.close();
    broken.close();
    await smtp.stop();
  }
});
