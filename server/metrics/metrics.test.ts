import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient, type JoinedClient } from "../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { TestSocket } from "../../tests/support/ws-client";

const TOKEN = "metrics-token-for-tests-0123456789";

/** One sample's value from the text format, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/**
 * GET /metrics: Prometheus text for a caller with METRICS_TOKEN, nothing for anyone else; the
 * figures are this app's own (two apps run in this process, each with its registry).
 */
describe("metrics", () => {
  let plain: TestServer;
  let server: TestServer;
  let owner: SignedInOwner;
  let client: JoinedClient;

  beforeAll(async () => {
    plain = await startTestServer();
    server = await startTestServer({ db: plain.db, env: { METRICS_TOKEN: TOKEN } });
    owner = await signUpOwner(server);
    client = await addJoinedClient(server, owner);
  });
  afterAll(async () => {
    await server?.close();
    await plain?.close();
  });

  const scrape = (target: TestServer, authorization?: string) =>
    fetch(`${target.url}/metrics`, { headers: authorization ? { authorization } : {} });

  it("has no /metrics without METRICS_TOKEN", async () => {
    expect((await scrape(plain, `Bearer ${TOKEN}`)).status).toBe(404);
  });

  it("answers 401 without the token or with a wrong one", async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      TOKEN,
    ]) {
      const answer = await scrape(server, authorization);
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await answer.json()).toEqual({ message: "A valid metrics token is required" });
    }
  });

  it("counts requests by route pattern, messages sent, open sockets, mail and job runs", async () => {
    const socket = await TestSocket.open(server.url, { cookie: owner.agent.cookieHeader });
    try {
      const sent = await client.agent.post(`/api/clients/${client.id}/messages`, {
        content: "counted",
      });
      expect(sent.status).toBe(201);
      await socket.waitFor((event) => event.messageId === sent.body.id);
      await server.jobs.runOnce("idempotency-keys-cleanup");
      await server.services.events.idle();
      await server.services.afterAnswer.idle();

      const answer = await scrape(server, `Bearer ${TOKEN}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      const text = await answer.text();

      expect(sample(text, 'clientdesk_messages_sent_total{kind="text"}')).toBe(1);
      expect(
        sample(
          text,
          'clientdesk_http_request_duration_seconds_count{method="POST",route="/api/clients/:id/messages",status="2xx"}',
        ),
      ).toBe(1);
      // The pattern, never the path: no id makes a series of its own.
      expect(text).not.toContain(client.id);
      expect(sample(text, "clientdesk_websockets_open")).toBe(1);
      // The verification code the owner signed up with went out through the mailer.
      expect(sample(text, 'clientdesk_emails_total{outcome="sent"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, "clientdesk_email_queue_depth")).toBe(0);
      expect(
        sample(text, 'clientdesk_job_runs_total{job="idempotency-keys-cleanup",outcome="ok"}'),
      ).toBe(1);
      // Default process metrics, once.
      expect(text.match(/^# TYPE process_cpu_user_seconds_total /gm)).toHaveLength(1);
      // Probes and the scrape itself are not counted.
      expect(text).not.toMatch(/route="\/(healthz|readyz|metrics)"/);
    } finally {
      socket.close();
    }
    await expect
      .poll(async () =>
        sample(
          await (await scrape(server, `Bearer ${TOKEN}`)).text(),
          "clientdesk_websockets_open",
        ),
      )
      .toBe(0);

    // The other app in this process counted none of it.
    const other = await plain.services.metrics.registry.getSingleMetricAsString(
      "clientdesk_messages_sent_total",
    );
    expect(other).not.toContain('kind="text"');
  });

  it("labels unknown API paths and the web app without their paths", async () => {
    await owner.agent.get("/api/no-such-thing/123");
    const text = await (await scrape(server, `Bearer ${TOKEN}`)).text();
    expect(
      sample(
        text,
        'clientdesk_http_request_duration_seconds_count{method="GET",route="unmatched",status="4xx"}',
      ),
    ).toBe(1);
    expect(text).not.toContain("no-such-thing");
  });
});
