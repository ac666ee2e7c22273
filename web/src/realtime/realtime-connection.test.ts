import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  BACKOFF_MAX_MS,
  backoffDelay,
  RESTART_SPREAD_MS,
  connectRealtime,
  parseRealtimeEvent,
  type RealtimeEvent,
  type RealtimeOptions,
  type SocketLike,
  websocketUrl,
} from "./realtime-connection";
import { catchUpInvalidations, invalidationsFor } from "./use-realtime";

class FakeSocket implements SocketLike {
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closedWith: number | undefined;
  constructor(readonly url: string) {}
  open() {
    this.onopen?.(new Event("open"));
  }
  receive(data: unknown) {
    this.onmessage?.({ data } as MessageEvent);
  }
  drop(code = 1006) {
    this.onclose?.({ code } as CloseEvent);
  }
  close(code?: number) {
    this.closedWith = code;
  }
}

describe("backoffDelay", () => {
  it("starts at 0.5 s, doubles, stops at 15 s, with half of it random", () => {
    expect(backoffDelay(0, () => 0)).toBe(250);
    expect(backoffDelay(0, () => 1)).toBe(500);
    expect(backoffDelay(1, () => 1)).toBe(1000);
    expect(backoffDelay(3, () => 1)).toBe(4000);
    expect(backoffDelay(10, () => 1)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(10, () => 0)).toBe(BACKOFF_MAX_MS / 2);
  });
});

describe("parseRealtimeEvent", () => {
  it("accepts the four event types and nothing else", async () => {
    const event = { type: "new_message", clientId: "c", messageId: "m" };
    expect(await parseRealtimeEvent(JSON.stringify(event))).toEqual(event);
    expect(
      await parseRealtimeEvent(JSON.stringify({ ...event, type: "messages_read" })),
    ).not.toBeNull();
    expect(await parseRealtimeEvent(JSON.stringify({ ...event, type: "other" }))).toBeNull();
    expect(await parseRealtimeEvent(JSON.stringify({ type: "new_message" }))).toBeNull();
    expect(
      await parseRealtimeEvent(JSON.stringify({ type: "client_joined", clientId: "c" })),
    ).toEqual({
      type: "client_joined",
      clientId: "c",
    });
    expect(await parseRealtimeEvent("not json")).toBeNull();
    expect(await parseRealtimeEvent(new ArrayBuffer(2))).toBeNull();
  });
});

describe("websocketUrl", () => {
  it("uses ws on http pages and wss on https pages, same host", () => {
    expect(websocketUrl("", { href: "http://localhost:3000/?client=1" })).toBe(
      "ws://localhost:3000/ws",
    );
    expect(websocketUrl("", { href: "https://app.example.com/client/1" })).toBe(
      "wss://app.example.com/ws",
    );
    expect(websocketUrl("https://api.example.com", { href: "file:///index.html" })).toBe(
      "wss://api.example.com/ws",
    );
  });
});

describe("connectRealtime", () => {
  let sockets: FakeSocket[];
  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
  });
  afterEach(() => vi.useRealTimers());

  function connect(overrides: Partial<RealtimeOptions> = {}) {
    const options = {
      url: "ws://localhost/ws",
      onEvent: vi.fn(),
      onConnected: vi.fn(),
      onEnded: vi.fn(),
      onConnectFailed: vi.fn(),
      onStatus: vi.fn(),
      random: () => 1,
      createSocket: (url: string) => {
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket;
      },
      ...overrides,
    };
    return { connection: connectRealtime(options), options };
  }

  it("hands events on in order and ignores malformed frames", async () => {
    const onEvent = vi.fn<(event: RealtimeEvent) => void>();
    connect({ onEvent });
    sockets[0]!.open();
    sockets[0]!.receive(JSON.stringify({ type: "new_message", clientId: "c", messageId: "m" }));
    sockets[0]!.receive("{}");
    sockets[0]!.receive(JSON.stringify({ type: "messages_read", clientId: "c", messageId: "m" }));
    await vi.waitFor(() => expect(onEvent).toHaveBeenCalledTimes(2));
    expect(onEvent.mock.calls.map(([event]) => event)).toEqual([
      { type: "new_message", clientId: "c", messageId: "m" },
      { type: "messages_read", clientId: "c", messageId: "m" },
    ]);
  });

  it("catches up when first open, reconnects with growing delays and catches up again", () => {
    const { connection, options } = connect();
    sockets[0]!.open();
    // Data loaded before the socket opened may already be behind.
    expect(options.onConnected).toHaveBeenCalledTimes(1);

    sockets[0]!.drop();
    expect(connection.status).toBe("reconnecting");
    vi.advanceTimersByTime(499);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);

    // Fails before opening: the next wait doubles.
    sockets[1]!.drop();
    expect(options.onConnectFailed).toHaveBeenCalledWith(1);
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);

    sockets[2]!.open();
    expect(connection.status).toBe("open");
    expect(options.onConnected).toHaveBeenCalledTimes(2);

    // After a success the backoff starts again from the beginning.
    sockets[2]!.drop();
    vi.advanceTimersByTime(500);
    expect(sockets).toHaveLength(4);
  });

  it("never waits longer than 15 s", () => {
    connect();
    for (let attempt = 0; attempt < 12; attempt += 1) {
      sockets.at(-1)!.drop();
      vi.advanceTimersByTime(BACKOFF_MAX_MS);
    }
    expect(sockets).toHaveLength(13);
  });

  it("stops for good on close code 4001 (access removed)", () => {
    const { connection, options } = connect();
    sockets[0]!.open();
    sockets[0]!.drop(4001);
    expect(options.onEnded).toHaveBeenCalledWith(4001);
    expect(connection.status).toBe("ended");
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it("after 4401 (session ended) tries the browser's current session at once; a refusal then is the second failure", () => {
    const { connection, options } = connect({ random: () => 0 });
    sockets[0]!.open();
    sockets[0]!.drop(4401);
    expect(options.onEnded).not.toHaveBeenCalled();
    expect(connection.status).toBe("reconnecting");
    // The session's end counts as a first refusal...
    expect(options.onConnectFailed).toHaveBeenLastCalledWith(1);
    vi.advanceTimersByTime(0);
    expect(sockets).toHaveLength(2);
    // ...so a refused attempt now (nobody signed in here any more) is the second, on which
    // the page asks who is signed in.
    sockets[1]!.drop(1006);
    expect(options.onConnectFailed).toHaveBeenLastCalledWith(2);
    vi.advanceTimersByTime(BACKOFF_MAX_MS);
    // Open again (e.g. signed in again meanwhile): the count starts over.
    sockets[2]!.open();
    expect(connection.status).toBe("open");
    sockets[2]!.drop(1006);
    vi.advanceTimersByTime(BACKOFF_MAX_MS);
    sockets[3]!.drop(1006);
    expect(options.onConnectFailed).toHaveBeenLastCalledWith(1);
  });

  it("reconnects at once after 1012 (server restarting), spread over 0-250 ms, and catches up", () => {
    let draw = 0;
    const { connection, options } = connect({ random: () => draw });
    sockets[0]!.open();
    // Earlier drops grew the backoff; a restart does not wait for it.
    sockets[0]!.drop(1006);
    vi.advanceTimersByTime(BACKOFF_MAX_MS);
    sockets[1]!.drop(1006);
    vi.advanceTimersByTime(BACKOFF_MAX_MS);
    sockets[2]!.open();

    draw = 0;
    sockets[2]!.drop(1012);
    expect(connection.status).toBe("reconnecting");
    vi.advanceTimersByTime(0);
    expect(sockets).toHaveLength(4);
    sockets[3]!.open();
    expect(options.onConnected).toHaveBeenCalledTimes(3);

    // The spread: the largest draw waits just under 250 ms, never the 0.5 s backoff.
    draw = 0.999;
    sockets[3]!.drop(1012);
    expect(RESTART_SPREAD_MS).toBe(250);
    vi.advanceTimersByTime(200);
    expect(sockets).toHaveLength(4);
    vi.advanceTimersByTime(RESTART_SPREAD_MS - 200);
    expect(sockets).toHaveLength(5);

    // If the reconnect itself fails, the ordinary backoff takes over from its start.
    draw = 1;
    sockets[4]!.drop(1006);
    vi.advanceTimersByTime(499);
    expect(sockets).toHaveLength(5);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(6);
  });

  it("closes the socket and stops when the page closes it", () => {
    const { connection } = connect();
    sockets[0]!.open();
    connection.close();
    expect(sockets[0]!.closedWith).toBe(1000);
    sockets[0]!.drop(1000);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(connection.status).toBe("closed");
  });

  it("tries again at once when the network comes back", () => {
    const network = new EventTarget();
    connect({ network: network as unknown as Window });
    sockets[0]!.open();
    sockets[0]!.drop();
    for (let attempt = 0; attempt < 4; attempt += 1) {
      vi.advanceTimersByTime(BACKOFF_MAX_MS);
      sockets.at(-1)!.drop();
    }
    const count = sockets.length;
    network.dispatchEvent(new Event("online"));
    expect(sockets).toHaveLength(count + 1);
  });
});

describe("invalidations", () => {
  const event = { clientId: "c1", messageId: "m1" };
  it("refreshes the conversation, its attachments and (for owners) the client list", () => {
    expect(invalidationsFor({ ...event, type: "new_message" }, "owner")).toEqual([
      ["messages", "c1"],
      ["attachments", "c1"],
      ["clients"],
    ]);
    expect(invalidationsFor({ ...event, type: "feedback_updated" }, "client")).toEqual([
      ["messages", "c1"],
      ["attachments", "c1"],
    ]);
    expect(invalidationsFor({ ...event, type: "messages_read" }, "client")).toEqual([
      ["messages", "c1"],
    ]);
    expect(invalidationsFor({ ...event, type: "messages_read" }, "owner")).toEqual([
      ["messages", "c1"],
      ["clients"],
    ]);
    // An edited or deleted message (issue 28): searches look again too.
    expect(invalidationsFor({ ...event, type: "message_updated" }, "client")).toEqual([
      ["messages", "c1"],
      ["attachments", "c1"],
      ["search"],
    ]);
    expect(invalidationsFor({ ...event, type: "message_deleted" }, "owner")).toEqual([
      ["messages", "c1"],
      ["attachments", "c1"],
      ["search"],
      ["clients"],
    ]);
  });

  it("leaves out the conversation when the event's message was placed in it", () => {
    expect(invalidationsFor({ ...event, type: "new_message" }, "owner", true)).toEqual([
      ["attachments", "c1"],
      ["clients"],
    ]);
    expect(invalidationsFor({ ...event, type: "new_message" }, "client", true)).toEqual([
      ["attachments", "c1"],
    ]);
  });

  it("refreshes the owner's client list when a client joins", () => {
    expect(invalidationsFor({ type: "client_joined", clientId: "c1" }, "owner")).toEqual([
      ["clients"],
    ]);
    expect(invalidationsFor({ type: "client_joined", clientId: "c1" }, "client")).toEqual([]);
  });

  it("refreshes the portal's client details (owner branding) and the owner's messages (their name and picture) when the owner's branding changes", () => {
    expect(invalidationsFor({ type: "branding_updated", clientId: "c1" }, "client")).toEqual([
      ["clients", "c1"],
      ["messages", "c1"],
    ]);
    expect(invalidationsFor({ type: "branding_updated", clientId: "c1" }, "owner")).toEqual([]);
  });

  it("refreshes the team, its seats and who is signed in on the staff's pages when the team changes", () => {
    expect(invalidationsFor({ type: "team_changed" }, "owner")).toEqual([
      ["team-members"],
      ["team-invites"],
      ["team-audit"],
      ["subscription-status", "seats"],
      ["user"],
    ]);
    expect(invalidationsFor({ type: "team_changed" }, "client")).toEqual([]);
  });

  it("catches up on every conversation once connected", () => {
    expect(catchUpInvalidations("owner")).toEqual([["messages"], ["attachments"], ["clients"]]);
    expect(catchUpInvalidations("client")).toEqual([["messages"], ["attachments"]]);
    // Reconnected: the staff's team may have changed while the socket was down.
    expect(catchUpInvalidations("owner", true)).toEqual([
      ["messages"],
      ["attachments"],
      ["clients"],
      ["team-members"],
      ["team-invites"],
      ["team-audit"],
      ["subscription-status", "seats"],
      ["user"],
    ]);
    expect(catchUpInvalidations("client", true)).toEqual([["messages"], ["attachments"]]);
  });
});
