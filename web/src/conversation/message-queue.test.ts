import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../api/client";
import { createConnectivity } from "../api/connectivity";
import { isNoAnswer } from "../api/idempotent-post";
import type { Message } from "./message-pages";
import { createMessageQueue, MAX_MISSES, type MessageQueueOptions } from "./message-queue";
import { outbox } from "./outbox";

/**
 * A stand-in for the server's messages route with its Idempotency-Key store: a key is stored
 * once; `lose` answers are stored but never reach the page; `down` means no answer at all.
 */
function fakeServer() {
  const stored: { key: string; content: string; id: string }[] = [];
  const attempts: string[] = [];
  let down = false;
  let loseNext = 0;
  let refuseWith: ApiError | null = null;
  return {
    stored,
    attempts,
    set down(value: boolean) {
      down = value;
    },
    loseNextAnswer() {
      loseNext += 1;
    },
    refuseNext(error: ApiError) {
      refuseWith = error;
    },
    async post(_clientId: string, entry: { key: string; content: string }): Promise<Message> {
      attempts.push(entry.key);
      if (down) throw new TypeError("Failed to fetch");
      if (refuseWith) {
        const error = refuseWith;
        refuseWith = null;
        throw error;
      }
      let message = stored.find((candidate) => candidate.key === entry.key);
      if (!message) {
        message = { key: entry.key, content: entry.content, id: `m${stored.length + 1}` };
        stored.push(message);
      }
      if (loseNext > 0) {
        loseNext -= 1;
        throw new TypeError("network error");
      }
      return { id: message.id, content: message.content } as Message;
    },
  };
}

let counter = 0;
let clientId = "";

describe("the message queue", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    clientId = `client-${++counter}`;
  });
  afterEach(() => {
    for (const entry of outbox.of(clientId)) outbox.remove(clientId, entry.key);
    vi.useRealTimers();
  });

  function setup(options: { withConnectivity?: boolean } = {}) {
    const server = fakeServer();
    let serverUp = true;
    const connectivity =
      options.withConnectivity === false
        ? null
        : createConnectivity({ probe: async () => serverUp, delaysMs: [1_000] });
    const sent: string[] = [];
    const queueOptions: MessageQueueOptions = {
      connectivity,
      post: (id, entry) => server.post(id, entry),
      isUnreachable: isNoAnswer,
      reasonOf: (error) => (error instanceof Error ? error.message : "refused"),
      newKey: () => `key-${++counter}`,
      onSent: (id, entry, message) => {
        sent.push(message.content ?? "");
        outbox.confirm(id, entry.key, message.id);
      },
    };
    const queue = createMessageQueue(queueOptions);
    const setServer = (up: boolean) => {
      serverUp = up;
      server.down = !up;
    };
    return { server, connectivity, queue, sent, setServer };
  }

  const states = () => outbox.of(clientId).map((entry) => `${entry.content}:${entry.state}`);

  it("queues what is sent while offline and sends it in order, once each, when the server is back", async () => {
    const { server, connectivity, queue, sent, setServer } = setup();
    setServer(false);
    connectivity!.reportUnreachable();
    const refused = vi.fn();
    queue.send(clientId, "first", undefined, refused);
    queue.send(clientId, "second", undefined, refused);
    expect(states()).toEqual(["first:queued", "second:queued"]);
    expect(server.attempts).toEqual([]);

    // Still down at the first probe: nothing is sent.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(server.attempts).toEqual([]);

    setServer(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent).toEqual(["first", "second"]);
    expect(server.stored.map((message) => message.content)).toEqual(["first", "second"]);
    expect(states()).toEqual([]);
    expect(refused).not.toHaveBeenCalled();
    connectivity!.stop();
  });

  it("a message whose answer was lost is sent again with its key and stored once", async () => {
    const { server, connectivity, queue, sent } = setup();
    server.loseNextAnswer();
    queue.send(clientId, "the plan", undefined, vi.fn());
    queue.send(clientId, "and more", undefined, vi.fn());
    await vi.advanceTimersByTimeAsync(0);
    // The lost answer took the page offline; both wait.
    expect(connectivity!.state).toBe("offline");
    expect(states()).toEqual(["the plan:queued", "and more:queued"]);

    await vi.advanceTimersByTimeAsync(1_000);
    expect(connectivity!.state).toBe("online");
    expect(sent).toEqual(["the plan", "and more"]);
    expect(server.attempts[0]).toBe(server.attempts[1]);
    expect(server.stored.map((message) => message.content)).toEqual(["the plan", "and more"]);
    connectivity!.stop();
  });

  it("a message refused at once goes back to its sender; one refused after waiting stays as Not sent with the reason", async () => {
    const { server, connectivity, queue, setServer } = setup();
    const refusedNow = vi.fn();
    server.refuseNext(new ApiError(400, "Too long", null));
    queue.send(clientId, "typed", undefined, refusedNow);
    await vi.advanceTimersByTimeAsync(0);
    expect(refusedNow).toHaveBeenCalledOnce();
    expect(states()).toEqual([]);

    setServer(false);
    connectivity!.reportUnreachable();
    const refusedLater = vi.fn();
    queue.send(clientId, "waited", undefined, refusedLater);
    setServer(true);
    server.refuseNext(new ApiError(403, "No access", null));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(states()).toEqual(["waited:failed"]);
    expect(outbox.of(clientId)[0]?.reason).toBe("No access");

    // Retry sends it again with its key.
    const key = outbox.of(clientId)[0]!.key;
    queue.retry(clientId, key);
    await vi.advanceTimersByTimeAsync(0);
    expect(states()).toEqual([]);
    expect(server.attempts.at(-1)).toBe(key);
    connectivity!.stop();
  });

  it(`shows Not sent after ${MAX_MISSES} attempts without an answer while the server otherwise answers`, async () => {
    const { server, connectivity, queue } = setup();
    // Only this request fails: the probe answers each time.
    server.down = true;
    queue.send(clientId, "stuck", undefined, vi.fn());
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.attempts).toHaveLength(MAX_MISSES);
    expect(new Set(server.attempts).size).toBe(1);
    expect(states()).toEqual(["stuck:failed"]);
    connectivity!.stop();
  });

  it("without a connectivity model (the client portal) it retries after 1, 2 and 4 s, then shows Not sent", async () => {
    const { server, queue } = setup({ withConnectivity: false });
    server.down = true;
    queue.send(clientId, "portal message", undefined, vi.fn());
    await vi.advanceTimersByTimeAsync(0);
    expect(states()).toEqual(["portal message:sending"]);
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000);
    expect(server.attempts).toHaveLength(4);
    expect(states()).toEqual(["portal message:failed"]);
  });
});
