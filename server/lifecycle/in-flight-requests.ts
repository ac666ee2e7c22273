import type { Server, ServerResponse } from "node:http";

/** The HTTP requests `server` is answering now, so that a drain can wait for them. */
export class InFlightRequests {
  private readonly open = new Set<ServerResponse>();

  constructor(server: Server) {
    server.on("request", (_req, res: ServerResponse) => {
      this.open.add(res);
      // "close" also fires when the caller goes away before the answer is complete.
      res.once("close", () => this.open.delete(res));
    });
  }

  get size(): number {
    return this.open.size;
  }

  /** Resolves once every request under way now has ended (later ones are not waited for). */
  settled(): Promise<void> {
    const pending = [...this.open].map((res) =>
      res.closed
        ? Promise.resolve()
        : new Promise<void>((resolve) => res.once("close", () => resolve())),
    );
    return Promise.all(pending).then(() => undefined);
  }
}
