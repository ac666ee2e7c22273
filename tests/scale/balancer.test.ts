import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Cluster, startCluster } from "../support/cluster";
import { pdfOfSize, uploadFile } from "../support/storage-files";
import { TestSocket } from "../support/ws-client";
import { makePairs, type Pair } from "./pairs";

/**
 * Three production instances on one PostgreSQL database behind HAProxy running
 * deploy/haproxy.cfg; every request and socket of these tests goes through the balancer.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("three instances behind HAProxy", () => {
  let cluster: Cluster;
  let pairs: Pair[];
  beforeAll(async () => {
    cluster = await startCluster();
    pairs = await makePairs(cluster, 3, 10);
  }, 120_000);
  afterAll(() => cluster?.stop());

  it("all came up together on an empty database, which was migrated once", async () => {
    expect(await cluster.states()).toEqual({ app1: "UP", app2: "UP", app3: "UP" });
    const { rows } = await cluster.db.raw(
      "select count(*)::int as runs, count(distinct name)::int as names from knex_migrations",
    );
    expect(rows[0].runs).toBe(rows[0].names);
    expect(rows[0].runs).toBeGreaterThan(0);
    for (const instance of cluster.instances) {
      expect(instance.process?.output()).not.toMatch(/"level":(50|60)/);
    }
  });

  it("spreads requests over every instance and says which one answered", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 6; i += 1) {
      const answer = await fetch(`${cluster.url}/api/billing-mode`);
      expect(answer.status).toBe(200);
      seen.add(answer.headers.get("x-served-by") ?? "");
    }
    // Round robin among equally loaded instances: every one served.
    expect([...seen].sort()).toEqual(["app1", "app2", "app3"]);
  });

  it("lets an owner and a client on different instances talk live", async () => {
    const { owner, client } = pairs[0]!;
    const ownerSocket = await TestSocket.open(cluster.url, { cookie: owner.agent.cookieHeader });
    const ownerInstance = ownerSocket.upgradeHeaders["x-served-by"];
    // The balancer spreads sockets: open the client's until one lands elsewhere.
    let clientSocket = await TestSocket.open(cluster.url, { cookie: client.agent.cookieHeader });
    for (
      let tries = 0;
      clientSocket.upgradeHeaders["x-served-by"] === ownerInstance && tries < 10;
      tries += 1
    ) {
      clientSocket.close();
      clientSocket = await TestSocket.open(cluster.url, { cookie: client.agent.cookieHeader });
    }
    try {
      expect(clientSocket.upgradeHeaders["x-served-by"]).not.toBe(ownerInstance);

      const sent = await owner.agent.post(`/api/clients/${client.id}/messages`, {
        content: "Draft is ready",
      });
      expect(sent.status).toBe(201);
      await clientSocket.waitFor(
        (event) => event.type === "new_message" && event.messageId === sent.body.id,
      );

      const reply = await client.agent.post(`/api/clients/${client.id}/messages`, {
        content: "Looks good",
      });
      expect(reply.status).toBe(201);
      await ownerSocket.waitFor(
        (event) => event.type === "new_message" && event.messageId === reply.body.id,
      );

      const read = await owner.agent.post(`/api/clients/${client.id}/read`, {
        messageId: reply.body.id,
      });
      expect(read.status).toBe(200);
      await clientSocket.waitFor((event) => event.type === "messages_read");
    } finally {
      ownerSocket.close();
      clientSocket.close();
    }
  });

  it("serves a file uploaded through one instance from another", async () => {
    const { owner, client } = pairs[1]!;
    const pdf = pdfOfSize(300_000);
    const uploaded = await uploadFile(owner.agent, client.id, pdf, "Contract.pdf");
    expect(uploaded.status).toBe(201);
    const uploadedBy = uploaded.headers.get("x-served-by");
    let servedBy = uploadedBy;
    let bytes: Buffer | undefined;
    for (let tries = 0; servedBy === uploadedBy && tries < 10; tries += 1) {
      const answer = await fetch(`${cluster.url}${uploaded.body.fileUrl}`, {
        headers: { cookie: client.agent.cookieHeader },
      });
      expect(answer.status).toBe(200);
      servedBy = answer.headers.get("x-served-by");
      bytes = Buffer.from(await answer.arrayBuffer());
    }
    expect(servedBy).not.toBe(uploadedBy);
    expect(bytes?.equals(pdf)).toBe(true);
    // The bytes are in the bucket, not on the instance that took the upload.
    const storedName = String(uploaded.body.fileUrl).split("/").pop();
    expect(await cluster.bucketKeys()).toContain(storedName);
  });

  it("sends each unanswered-message email once, whichever instance's sweep takes it", async () => {
    const waiting = pairs.slice(2);
    for (const { owner, client } of waiting) {
      const sent = await owner.agent.post(`/api/clients/${client.id}/messages`, {
        content: `News for ${client.name}`,
      });
      expect(sent.status).toBe(201);
    }
    const clientIds = waiting.map(({ client }) => client.id);
    // The clients' delay has passed (minutes in real time; the rows say when).
    const due = await cluster.db.raw(
      `update notification_states set due_at = now() - interval '1 second'
        where recipient_role = 'client' and client_id = any(?::uuid[]) and due_at is not null`,
      [clientIds],
    );
    expect(due.rowCount).toBe(waiting.length);

    // Each instance sweeps every 20 s: within about that, every email has gone out, and then
    // the rows say so, so that no sweep can take them again.
    for (const { client } of waiting) {
      await cluster.smtp.waitFor(
        client.email,
        (mail) => /new messages? from/i.test(mail.subject),
        60_000,
      );
    }
    await expect
      .poll(
        async () => {
          const { rows } = await cluster.db.raw(
            `select count(*)::int as left from notification_states
              where recipient_role = 'client' and client_id = any(?::uuid[])
                and (due_at is not null or last_notified_seq = 0)`,
            [clientIds],
          );
          return rows[0].left;
        },
        { timeout: 30_000 },
      )
      .toBe(0);
    for (const { client } of waiting) {
      expect(
        cluster.smtp
          .mailsTo(client.email)
          .filter((mail) => /new messages? from/i.test(mail.subject)),
      ).toHaveLength(1);
    }
  });
});
