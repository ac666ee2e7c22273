import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import {
  connectRealtime,
  type RealtimeConnection,
  type RealtimeEvent,
  type SocketLike,
} from "./realtime-connection";

// The connection against a real websocket server (the `ws` package on a free port), as the
// browser's WebSocket would meet the app's: frames, close codes, reconnects.

let server: WebSocketServer;
let url: string;
/** The server's end of each connection, in the order they came. */
let peers: WebSocket[];
let arrived: (() => void)[];
let connection: RealtimeConnection | undefined;

beforeEach(async () => {
  peers = [];
  arrived = [];
  server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  server.on("connection", (peer) => {
    peers.push(peer);
    for (const wake of arrived.splice(0)) wake();
  });
  await new Promise((resolve) => server.once("listening", resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
});
afterEach(async () => {
  connection?.close();
  for (const peer of peers) peer.terminate();
  await new Promise((resolve) => server.close(resolve));
});

/** The server's end of connection number `n` (1 for the first), once it is there. */
async function peer(n: number): Promise<WebSocket> {
  while (peers.length < n) await new Promise<void>((resolve) => arrived.push(resolve));
  return peers[n - 1]!;
}

function connect() {
  const events: RealtimeEvent[] = [];
  const calls = { connected: 0, reconnectsScheduled: 0, ended: [] as number[] };
  let onConnected = () => {};
  const connectedAgain = () => new Promise<void>((resolve) => (onConnected = resolve));
  let onEnded = () => {};
  const ended = new Promise<void>((resolve) => (onEnded = resolve));
  connection = connectRealtime({
    url,
    createSocket: (address) => new WebSocket(address) as unknown as SocketLike,
    // Drawn once for each reconnect scheduled: counting the draws counts them.
    random: () => {
      calls.reconnectsScheduled += 1;
      return 0;
    },
    onEvent: (event) => events.push(event),
    onConnected: () => {
      calls.connected += 1;
      onConnected();
    },
    onEnded: (code) => {
      calls.ended.push(code);
      onEnded();
    },
  });
  return { events, calls, connectedAgain, ended };
}

const event = (messageId: string) => ({ type: "new_message", clientId: "c1", messageId });

describe("the realtime connection over a real websocket", () => {
  it("hands on the server's events, in order, and skips frames that are not events", async () => {
    const live = connect();
    const opened = live.connectedAgain();
    const first = await peer(1);
    await opened;
    first.send(JSON.stringify(event("m1")));
    first.send("not json");
    first.send(JSON.stringify({ type: "new_message", clientId: "c1" }));
    first.send(Buffer.from(JSON.stringify(event("binary"))), { binary: true });
    first.send(
      JSON.stringify({ type: "client_joined", clientId: "c1", stripped: "unknown field" }),
    );
    first.send(JSON.stringify(event("m2")));
    // The last frame sent: once it is handed on, every frame before it was handled.
    await vi.waitFor(() => expect(live.events.at(-1)).toEqual(event("m2")));
    expect(live.events).toEqual([
      event("m1"),
      { type: "client_joined", clientId: "c1" },
      event("m2"),
    ]);
    expect(connection!.status).toBe("open");
  });

  it("reconnects after the server restarts a socket (1012) and catches up on the new one", async () => {
    const live = connect();
    let opened = live.connectedAgain();
    await peer(1);
    await opened;
    opened = live.connectedAgain();
    (await peer(1)).close(1012, "Reconnect");
    const second = await peer(2);
    await opened;
    expect(live.calls).toMatchObject({ connected: 2, reconnectsScheduled: 1 });
    second.send(JSON.stringify(event("after")));
    await vi.waitFor(() => expect(live.events).toEqual([event("after")]));
  });

  it("does not come back after the server ends access (4001)", async () => {
    const live = connect();
    const opened = live.connectedAgain();
    await peer(1);
    await opened;
    (await peer(1)).close(4001, "Ended");
    await live.ended;
    expect(live.calls.ended).toEqual([4001]);
    expect(connection!.status).toBe("ended");
    // A reconnect is scheduled in the same turn as the close is handled: none was.
    expect(live.calls.reconnectsScheduled).toBe(0);
  });

  it("comes back at once after the server ends the socket's session (4401), on the browser's current one", async () => {
    const live = connect();
    let opened = live.connectedAgain();
    await peer(1);
    await opened;
    opened = live.connectedAgain();
    (await peer(1)).close(4401, "Session ended");
    const second = await peer(2);
    await opened;
    expect(live.calls).toMatchObject({ connected: 2, reconnectsScheduled: 1, ended: [] });
    second.send(JSON.stringify(event("after")));
    await vi.waitFor(() => expect(live.events).toEqual([event("after")]));
  });

  it("keeps trying while the server is away, and connects once it is back", async () => {
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const live = connect();
    await vi.waitFor(() => expect(live.calls.reconnectsScheduled).toBeGreaterThanOrEqual(2));
    expect(connection!.status).toBe("connecting");
    const opened = live.connectedAgain();
    server = new WebSocketServer({ port, host: "127.0.0.1" });
    server.on("connection", (peer) => peers.push(peer));
    await opened;
    expect(connection!.status).toBe("open");
  });
});
