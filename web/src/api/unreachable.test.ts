import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createServerForwarder } from "../../../desktop/main/server-bridge";
import { isUnreachable } from "./installed-connectivity";

/** A port that was just free: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("what counts as the server not reached", () => {
  it("a fetch that gets no answer, in the browser", async () => {
    const port = await closedPort();
    const error = await fetch(`http://127.0.0.1:${port}/healthz`).catch((caught) => caught);
    expect(isUnreachable(error)).toBe(true);
  });

  it("the desktop bridge's answer when main cannot reach the server", async () => {
    const port = await closedPort();
    const serverUrl = `http://127.0.0.1:${port}`;
    const forward = createServerForwarder(
      { fetch: (input, init) => fetch(input, init) },
      {
        server: { serverUrl, scheme: "http", websocketUrl: `ws://127.0.0.1:${port}/ws` },
        devServerOrigin: null,
        csp: "",
      },
    );
    const answer = await forward(new Request(`${serverUrl}/api/clients`), "/api/clients");
    expect(answer.status).toBe(502);
    expect(isUnreachable(answer)).toBe(true);
  });

  it("not the server's own answers, errors included, nor a request the page cancelled", () => {
    for (const status of [200, 401, 404, 409, 500]) {
      expect(isUnreachable(new Response(null, { status }))).toBe(false);
    }
    expect(isUnreachable(new DOMException("The user aborted a request.", "AbortError"))).toBe(
      false,
    );
  });
});
