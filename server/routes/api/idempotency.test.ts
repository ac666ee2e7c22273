import { randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestClock } from "../../../tests/support/clock";
import { addJoinedClient } from "../../../tests/support/conversations";
import { startConversation } from "../../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import type { RealtimeEvent } from "../../../shared/realtime";
import { IDEMPOTENCY_MESSAGES } from "../../idempotency/idempotency-key";
import { Message, StoredFile } from "../../models";

let server: TestServer;
let clock: TestClock;
beforeAll(async () => {
  server = await startTestServer();
  clock = server.clock as TestClock;
});
afterAll(() => server?.close());

/** An owner (on pro) with one joined client. */
const conversation = () => startConversation(server, { tier: "pro" });

const keyed = (key: string) => ({ "idempotency-key": key });
const messagesOf = (clientId: string) => Message.query().where("clientId", clientId).orderBy("seq");
const filesOf = (clientId: string) => StoredFile.query().where("clientId", clientId);
const keyRow = (key: string) => server.db("idempotency_keys").where({ key }).first();

function storedFiles(): string[] {
  const root = path.join(server.dataDir, "files");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

/** new_message events about one conversation, as this server's hub publishes them. */
function recordNewMessages(clientId: string) {
  const events: RealtimeEvent[] = [];
  const stop = server.services.realtime.subscribe((message) => {
    if (message.kind !== "event" || message.event.clientId !== clientId) return;
    if (message.event.type === "new_message") events.push(message.event);
  });
  /**
   * The events announced before a marker message `agent` sends now: each answer comes after
   * its own announcement, and events arrive in order, so once the marker's event is here any
   * event of the earlier requests is too.
   */
  const before = async (agent: TestAgent) => {
    const marker = await agent.post(`/api/clients/${clientId}/messages`, { content: "marker" });
    const isMarker = (event: RealtimeEvent) =>
      "messageId" in event && event.messageId === marker.body.id;
    await expect.poll(() => events.some(isMarker)).toBe(true);
    stop();
    return events.filter((event) => !isMarker(event));
  };
  return { before };
}

const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
);

function pdfForm(name = "brief.pdf"): FormData {
  const body = new FormData();
  body.append("file", new Blob([new Uint8Array(PDF)], { type: "application/pdf" }), name);
  return body;
}

const upload = (agent: TestAgent, clientId: string, key: string) =>
  agent.request("POST", `/api/clients/${clientId}/upload`, {
    body: pdfForm(),
    headers: keyed(key),
  });

/**
 * An upload over node:http whose body the test finishes when it likes: the server has
 * claimed the key (it does before reading the body) while the upload is still open.
 */
function openUpload(agent: TestAgent, clientId: string, key: string) {
  const boundary = "IdempotencyBoundary";
  const request = http.request(`${server.url}/api/clients/${clientId}/upload`, {
    method: "POST",
    headers: {
      "content-type": `multipart/form-data; boundary=${boundary}`,
      cookie: agent.cookieHeader,
      origin: server.url,
      ...keyed(key),
    },
  });
  const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
    request.once("error", reject);
    request.once("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.once("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(chunks).toString()),
        }),
      );
    });
  });
  request.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\n` +
      "Content-Type: application/pdf\r\n\r\n",
  );
  return {
    response,
    finish() {
      request.end(Buffer.concat([PDF, Buffer.from(`\r\n--${boundary}--\r\n`)]));
      return response;
    },
  };
}

/**
 * A TCP proxy to the server that forwards the request and drops the answer: the connection
 * closes the moment the server starts answering, as when a phone loses its network.
 */
async function answerDroppingProxy(): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(server.url);
  const proxy = net.createServer((downstream) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    downstream.pipe(upstream);
    upstream.once("data", () => {
      downstream.destroy();
      upstream.destroy();
    });
    downstream.on("error", () => upstream.destroy());
    upstream.on("error", () => downstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const port = (proxy.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

/** A request through `baseUrl` as `agent` (its cookies), which may never get an answer. */
function sendThrough(baseUrl: string, agent: TestAgent, urlPath: string, init: RequestInit) {
  return fetch(`${baseUrl}${urlPath}`, {
    ...init,
    headers: { cookie: agent.cookieHeader, origin: server.url, ...(init.headers as object) },
  });
}

describe("Idempotency-Key on POST /api/clients/:id/messages", () => {
  it("answers a repeated key with the first result and stores and announces one message", async () => {
    const { owner, client } = await conversation();
    const path = `/api/clients/${client.id}/messages`;
    const events = recordNewMessages(client.id);
    const key = randomUUID();

    const first = await owner.agent.post(path, { content: "Invoice attached" }, keyed(key));
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // The retry may even differ in body: the key decides, as with Stripe.
    for (const content of ["Invoice attached", "something else"]) {
      const again = await owner.agent.post(path, { content }, keyed(key));
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
    }

    const stored = await messagesOf(client.id);
    expect(stored.map((message) => message.content)).toEqual(["Invoice attached"]);
    expect(await events.before(owner.agent)).toEqual([
      { type: "new_message", clientId: client.id, messageId: first.body.id, afterId: null },
    ]);
    // Without a key nothing changes: each POST is a message.
    await owner.agent.post(path, { content: "one" });
    await owner.agent.post(path, { content: "one" });
    const unkeyed = (await messagesOf(client.id)).filter((message) => message.content === "one");
    expect(unkeyed).toHaveLength(2);
  });

  it("keeps keys per user: the owner's and the client's same key are two messages", async () => {
    const { owner, client } = await conversation();
    const path = `/api/clients/${client.id}/messages`;
    const key = "shared-key-1";
    const fromOwner = await owner.agent.post(path, { content: "from owner" }, keyed(key));
    const fromClient = await client.agent.post(path, { content: "from client" }, keyed(key));
    expect([fromOwner.status, fromClient.status]).toEqual([201, 201]);
    expect(fromClient.body.id).not.toBe(fromOwner.body.id);
    expect((await messagesOf(client.id)).map((message) => message.content)).toEqual([
      "from owner",
      "from client",
    ]);
  });

  it("refuses a key reused on another path, and malformed keys", async () => {
    const { owner, client } = await conversation();
    const other = await addJoinedClient(server, owner, { name: "Second Client" });
    const key = randomUUID();
    const sent = await owner.agent.post(
      `/api/clients/${client.id}/messages`,
      { content: "hi" },
      keyed(key),
    );
    expect(sent.status).toBe(201);

    const elsewhere = await owner.agent.post(
      `/api/clients/${other.id}/messages`,
      { content: "hi" },
      keyed(key),
    );
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toEqual({ message: IDEMPOTENCY_MESSAGES.reused });
    const asUpload = await upload(owner.agent, client.id, key);
    expect(asUpload.status).toBe(422);
    expect(asUpload.body).toEqual({ message: IDEMPOTENCY_MESSAGES.reused });

    for (const bad of ["", "x".repeat(256), "tab\there", "caf\u00e9"]) {
      const response = await owner.agent.post(
        `/api/clients/${other.id}/messages`,
        { content: "hi" },
        keyed(bad),
      );
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(response.body).toEqual({ message: IDEMPOTENCY_MESSAGES.invalid });
    }
    const longest = await owner.agent.post(
      `/api/clients/${other.id}/messages`,
      { content: "hi" },
      keyed("~".repeat(255)),
    );
    expect(longest.status).toBe(201);
    expect(await messagesOf(other.id)).toHaveLength(1);
    expect(await messagesOf(client.id)).toHaveLength(1);
  });

  it("frees the key after a failed attempt so the retry runs", async () => {
    const { owner, client } = await conversation();
    const path = `/api/clients/${client.id}/messages`;
    const key = randomUUID();
    const empty = await owner.agent.post(path, { content: "   " }, keyed(key));
    expect(empty.status).toBe(400);
    expect(await keyRow(key)).toBeUndefined();
    const sent = await owner.agent.post(path, { content: "now with words" }, keyed(key));
    expect(sent.status).toBe(201);
    expect(sent.headers.get("idempotent-replayed")).toBeNull();
    expect(await messagesOf(client.id)).toHaveLength(1);
  });

  it("stores one message when the same key arrives many times at once", async () => {
    const { owner, client } = await conversation();
    const path = `/api/clients/${client.id}/messages`;
    const events = recordNewMessages(client.id);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => owner.agent.post(path, { content: "once" }, keyed(key))),
    );
    const stored = await messagesOf(client.id);
    expect(stored).toHaveLength(1);
    for (const answer of answers) {
      // Either the first result, or "still running" (the first had not answered yet).
      if (answer.status === 201) expect(answer.body.id).toBe(stored[0]!.id);
      else {
        expect(answer.status).toBe(409);
        expect(answer.body).toEqual({ message: IDEMPOTENCY_MESSAGES.inProgress });
        expect(answer.headers.get("retry-after")).toBe("1");
      }
    }
    expect(answers.filter((answer) => answer.status === 201).length).toBeGreaterThanOrEqual(1);
    expect(await events.before(owner.agent)).toHaveLength(1);
  });

  it("answers a key of more than 24 hours ago as new, and the job deletes old keys", async () => {
    const { owner, client } = await conversation();
    const path = `/api/clients/${client.id}/messages`;
    const key = randomUUID();
    const first = await owner.agent.post(path, { content: "Monday" }, keyed(key));
    clock.advance(24 * 60 * 60_000 - 60_000);
    const withinDay = await owner.agent.post(path, { content: "Monday" }, keyed(key));
    expect(withinDay.body.id).toBe(first.body.id);
    expect(await messagesOf(client.id)).toHaveLength(1);

    clock.advance(2 * 60_000);
    const nextDay = await owner.agent.post(path, { content: "Tuesday" }, keyed(key));
    expect(nextDay.status).toBe(201);
    expect(nextDay.body.id).not.toBe(first.body.id);
    expect((await messagesOf(client.id)).map((message) => message.content)).toEqual([
      "Monday",
      "Tuesday",
    ]);

    const other = randomUUID();
    await owner.agent.post(path, { content: "Wednesday" }, keyed(other));
    clock.advance(24 * 60 * 60_000 + 60_000);
    expect(await keyRow(other)).toBeDefined();
    await server.jobs.runOnce("idempotency-keys-cleanup");
    expect(await keyRow(other)).toBeUndefined();
  });

  it("yields one message when the answer is lost on the way back and the client retries", async () => {
    const { owner, client } = await conversation();
    const path = `/api/clients/${client.id}/messages`;
    const events = recordNewMessages(client.id);
    const key = randomUUID();
    const proxy = await answerDroppingProxy();
    try {
      await expect(
        sendThrough(proxy.url, owner.agent, path, {
          method: "POST",
          headers: { "content-type": "application/json", ...keyed(key) },
          body: JSON.stringify({ content: "Did this arrive?" }),
        }),
      ).rejects.toThrow();
    } finally {
      await proxy.close();
    }
    const retry = await owner.agent.post(path, { content: "Did this arrive?" }, keyed(key));
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    const stored = await messagesOf(client.id);
    expect(stored.map((message) => message.id)).toEqual([retry.body.id]);
    expect(await events.before(owner.agent)).toHaveLength(1);
  });

  it("yields one message when the client gives up on the request and retries until answered", async () => {
    const { owner, client } = await conversation();
    const path = `/api/clients/${client.id}/messages`;
    const key = randomUUID();
    const init = {
      method: "POST",
      headers: { "content-type": "application/json", ...keyed(key) },
      body: JSON.stringify({ content: "Sent from a train" }),
    };
    // Aborted once sent: the server may or may not have stored it by then.
    const abort = new AbortController();
    const lost = sendThrough(server.url, owner.agent, path, { ...init, signal: abort.signal });
    // Not a wait for a signal: either outcome of this race is asserted below (one message).
    await new Promise((resolve) => setTimeout(resolve, 5));
    abort.abort();
    await expect(lost).rejects.toThrow();
    // The app's retries: "still running" (409) is tried again, anything else is the answer.
    const retry = await vi.waitFor(
      async () => {
        const answer = await owner.agent.post(path, { content: "Sent from a train" }, keyed(key));
        if (answer.status === 409) throw new Error("still running: try again");
        return answer;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(retry.status).toBe(201);
    const stored = await messagesOf(client.id);
    expect(stored.map((message) => message.id)).toEqual([retry.body.id]);
  });

  it("replays a message stored by an attempt that died before saving its answer", async () => {
    const { owner, client } = await conversation();
    const path = `/api/clients/${client.id}/messages`;
    const key = randomUUID();
    const first = await owner.agent.post(
      path,
      { content: "stored, then the process died" },
      keyed(key),
    );
    // What kill -9 between the message's commit and the answer's save leaves behind.
    await server.db("idempotency_keys").where({ key }).update({ status: null, body: null });
    const retry = await owner.agent.post(
      path,
      { content: "stored, then the process died" },
      keyed(key),
    );
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({
      id: first.body.id,
      content: "stored, then the process died",
    });
    expect(await messagesOf(client.id)).toHaveLength(1);
  });
});

describe("Idempotency-Key on uploads", () => {
  it("answers a repeated upload with the first result: one files row, one stored file", async () => {
    const { owner, client } = await conversation();
    const events = recordNewMessages(client.id);
    const filesBefore = storedFiles().length;
    const key = randomUUID();
    const first = await upload(owner.agent, client.id, key);
    expect(first.status).toBe(201);
    const again = await upload(owner.agent, client.id, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await filesOf(client.id)).toHaveLength(1);
    expect(await messagesOf(client.id)).toHaveLength(1);
    expect(storedFiles().length - filesBefore).toBe(1);
    expect(await events.before(owner.agent)).toHaveLength(1);
  });

  it("answers 409 while the first upload is still running, then its result", async () => {
    const { owner, client } = await conversation();
    const key = randomUUID();
    const slow = openUpload(owner.agent, client.id, key);
    await expect.poll(() => keyRow(key)).toBeDefined();
    const during = await upload(owner.agent, client.id, key);
    expect(during.status).toBe(409);
    expect(during.body).toEqual({ message: IDEMPOTENCY_MESSAGES.inProgress });
    expect(during.headers.get("retry-after")).toBe("1");
    const done = await slow.finish();
    expect(done.status).toBe(201);
    const after = await upload(owner.agent, client.id, key);
    expect(after.body).toEqual(done.body);
    expect(await filesOf(client.id)).toHaveLength(1);
  });

  it("lets a retry take over a claim abandoned for minutes; the late first attempt stores nothing", async () => {
    const { owner, client } = await conversation();
    const key = randomUUID();
    const filesBefore = storedFiles().length;
    const stuck = openUpload(owner.agent, client.id, key);
    await expect.poll(() => keyRow(key)).toBeDefined();
    clock.advance(3 * 60_000);
    const retry = await upload(owner.agent, client.id, key);
    expect(retry.status).toBe(201);
    const late = await stuck.finish();
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ message: IDEMPOTENCY_MESSAGES.inProgress });
    expect(await filesOf(client.id)).toHaveLength(1);
    expect(storedFiles().length - filesBefore).toBe(1);
    const again = await upload(owner.agent, client.id, key);
    expect(again.body).toEqual(retry.body);
  });

  it("yields one file when the upload's answer is lost and the client retries", async () => {
    const { owner, client } = await conversation();
    const filesBefore = storedFiles().length;
    const key = randomUUID();
    const proxy = await answerDroppingProxy();
    try {
      await expect(
        sendThrough(proxy.url, owner.agent, `/api/clients/${client.id}/upload`, {
          method: "POST",
          headers: keyed(key),
          body: pdfForm(),
        }),
      ).rejects.toThrow();
    } finally {
      await proxy.close();
    }
    const retry = await upload(owner.agent, client.id, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect((await filesOf(client.id)).map((file) => file.id)).toHaveLength(1);
    expect(storedFiles().length - filesBefore).toBe(1);
  });

  it("makes a new version idempotent too", async () => {
    const { owner, client } = await conversation();
    const sent = await owner.agent.request("POST", `/api/clients/${client.id}/upload`, {
      body: (() => {
        const body = pdfForm("logo.pdf");
        body.append("requiresFeedback", "true");
        return body;
      })(),
    });
    expect(sent.status).toBe(201);
    const decided = await client.agent.patch(`/api/messages/${sent.body.id}/feedback`, {
      feedbackStatus: "needs_work",
      feedbackComment: "Bigger",
    });
    expect(decided.status).toBe(200);
    const key = randomUUID();
    const versionPath = `/api/messages/${sent.body.id}/versions`;
    const first = await owner.agent.request("POST", versionPath, {
      body: pdfForm("logo-v2.pdf"),
      headers: keyed(key),
    });
    expect(first.status).toBe(201);
    expect(first.body.versionNumber).toBe(2);
    const again = await owner.agent.request("POST", versionPath, {
      body: pdfForm("logo-v2.pdf"),
      headers: keyed(key),
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await filesOf(client.id)).toHaveLength(2);
  });
});
