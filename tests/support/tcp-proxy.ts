import net, { type AddressInfo } from "node:net";

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
}

/**
 * A TCP proxy between the server and PostgreSQL that a test can break the way a network or a
 * database breaks:
 * - pause(): frozen. Connections stay open and new ones are accepted, but no byte goes through
 *   in either direction (held, not lost) until resume().
 * - cut(): down. Every connection is destroyed and the port stops listening, so new ones are
 *   refused (ECONNREFUSED).
 * - resume(): back to forwarding (listening again on the same port after a cut).
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly pairs = new Set<Pair>();
  private paused = false;

  constructor(
    private readonly target: { host: string; port: number },
    private readonly host = "127.0.0.1",
    /** 0: any free port. */
    private port = 0,
  ) {}

  /** A URL like `url` (a postgres:// one) that goes through this proxy instead. */
  static async inFrontOf(url: string): Promise<{ proxy: TcpProxy; url: string }> {
    const parsed = new URL(url);
    const proxy = new TcpProxy({ host: parsed.hostname, port: Number(parsed.port || 5432) });
    await proxy.start();
    parsed.hostname = proxy.host;
    parsed.port = String(proxy.port);
    return { proxy, url: parsed.toString() };
  }

  async start(): Promise<void> {
    const server = net.createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.port, this.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Open connections through the proxy. */
  get connections(): number {
    return this.pairs.size;
  }

  pause(): void {
    this.paused = true;
    for (const { client, upstream } of this.pairs) {
      client.pause();
      upstream.pause();
    }
  }

  async cut(): Promise<void> {
    this.paused = false;
    const server = this.server;
    this.server = null;
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : null;
    for (const pair of this.pairs) this.drop(pair);
    await closed;
  }

  async resume(): Promise<void> {
    this.paused = false;
    for (const { client, upstream } of this.pairs) {
      client.resume();
      upstream.resume();
    }
    if (!this.server) await this.start();
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private accept(client: net.Socket): void {
    const upstream = net.connect(this.target.port, this.target.host);
    const pair = { client, upstream };
    this.pairs.add(pair);
    // Data events rather than pipe(): pipe would resume a paused side on 'drain'.
    client.on("data", (chunk) => upstream.write(chunk));
    upstream.on("data", (chunk) => client.write(chunk));
    const end = () => this.drop(pair);
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", end);
    upstream.on("error", end);
    if (this.paused) {
      client.pause();
      upstream.pause();
    }
  }

  private drop(pair: Pair): void {
    if (!this.pairs.delete(pair)) return;
    pair.client.destroy();
    pair.upstream.destroy();
  }
}
