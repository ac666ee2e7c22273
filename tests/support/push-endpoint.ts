import { createECDH, createPublicKey, randomBytes, randomUUID, verify } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";

/** http_ece (web-push's own dependency) decrypts aes128gcm as a browser does. */
const ece = createRequire(import.meta.url)("http_ece") as {
  decrypt(
    buffer: Buffer,
    params: { version: string; privateKey: unknown; authSecret: Buffer },
  ): Buffer;
};

/** A browser's subscription, as PushSubscription.toJSON() gives it. */
export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  endpoint: string;
  /** The decrypted payload, parsed. */
  payload: { title: string; body: string; url: string; tag: string };
  headers: http.IncomingHttpHeaders;
}

interface Device {
  ecdh: ReturnType<typeof createECDH>;
  authSecret: Buffer;
  /** What the service answers a push for this device (201 until told otherwise). */
  status: number;
}

/**
 * A push service on 127.0.0.1, as a browser's push service (FCM, Mozilla's, Apple's) would
 * be: each subscription is a "device" whose private keys only this service holds. A push is
 * accepted only with a valid VAPID signature (ES256 JWT for this origin, by the expected
 * public key) and is decrypted with the device's own keys; anything else is recorded in
 * `refused` and answered 400/401/403.
 */
export class TestPushService {
  readonly received: ReceivedPush[] = [];
  readonly refused: string[] = [];
  private readonly devices = new Map<string, Device>();
  private readonly server = http.createServer((req, res) => void this.handle(req, res));
  private waiters: (() => void)[] = [];
  origin = "";
  /** The VAPID public key pushes must be signed with (the app's config.vapid.publicKey). */
  vapidPublicKey = "";

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.origin;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** A new device: what its browser's pushManager.subscribe() would give. */
  subscribe(): BrowserSubscription {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const authSecret = randomBytes(16);
    const endpoint = `${this.origin}/push/${randomUUID()}`;
    this.devices.set(endpoint, { ecdh, authSecret, status: 201 });
    return {
      endpoint,
      keys: {
        p256dh: ecdh.getPublicKey().toString("base64url"),
        auth: authSecret.toString("base64url"),
      },
    };
  }

  /** From now on, pushes to this device are answered `status` (404, 410: gone). */
  answer(endpoint: string, status: number): void {
    const device = this.devices.get(endpoint);
    if (device) device.status = status;
  }

  pushesTo(endpoint: string): ReceivedPush[] {
    return this.received.filter((push) => push.endpoint === endpoint);
  }

  /** Resolves once `count` pushes reached `endpoint` (tests time out otherwise). */
  async waitForPushes(endpoint: string, count = 1): Promise<ReceivedPush[]> {
    while (this.pushesTo(endpoint).length < count) {
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return this.pushesTo(endpoint);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const endpoint = `${this.origin}${req.url ?? ""}`;
    const refuse = (status: number, why: string) => {
      this.refused.push(`${endpoint}: ${why}`);
      res.writeHead(status).end(why);
      this.wake();
    };
    const device = this.devices.get(endpoint);
    if (req.method !== "POST" || !device) return refuse(404, "no such subscription");
    const problem = this.vapidProblem(req.headers.authorization);
    if (problem) return refuse(403, problem);
    if (req.headers["content-encoding"] !== "aes128gcm") return refuse(400, "not aes128gcm");
    if (!req.headers.ttl) return refuse(400, "no TTL");
    if (device.status !== 201) {
      res.writeHead(device.status).end();
      this.wake();
      return;
    }
    let payload: ReceivedPush["payload"];
    try {
      const plain = ece.decrypt(body, {
        version: "aes128gcm",
        privateKey: device.ecdh,
        authSecret: device.authSecret,
      });
      payload = JSON.parse(plain.toString("utf8"));
    } catch (error) {
      return refuse(400, `cannot decrypt: ${(error as Error).message}`);
    }
    this.received.push({ endpoint, payload, headers: req.headers });
    res.writeHead(201).end();
    this.wake();
  }

  /** RFC 8292: `vapid t=<JWT>, k=<public key>`, the JWT signed ES256 by that key for this origin. */
  private vapidProblem(authorization: string | undefined): string | null {
    const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? "");
    if (!match) return "no VAPID authorization";
    const [, jwt = "", key = ""] = match;
    if (this.vapidPublicKey && key !== this.vapidPublicKey) return "signed by another VAPID key";
    const point = Buffer.from(key, "base64url");
    if (point.length !== 65 || point[0] !== 4) return "VAPID key is not a P-256 point";
    // A malformed key or JWT is a refusal to report, not an exception that leaves the
    // request unanswered.
    try {
      const publicKey = createPublicKey({
        key: {
          kty: "EC",
          crv: "P-256",
          x: point.subarray(1, 33).toString("base64url"),
          y: point.subarray(33).toString("base64url"),
        },
        format: "jwk",
      });
      const [header = "", claims = "", signature = ""] = jwt.split(".");
      const signed = verify(
        "sha256",
        Buffer.from(`${header}.${claims}`),
        { key: publicKey, dsaEncoding: "ieee-p1363" },
        Buffer.from(signature, "base64url"),
      );
      if (!signed) return "VAPID signature does not verify";
      const head = JSON.parse(Buffer.from(header, "base64url").toString());
      const body = JSON.parse(Buffer.from(claims, "base64url").toString());
      if (head.alg !== "ES256") return "VAPID JWT is not ES256";
      if (body.aud !== this.origin) return `VAPID audience ${body.aud} is not ${this.origin}`;
      if (typeof body.exp !== "number" || body.exp * 1000 < Date.now()) return "VAPID JWT expired";
      if (!/^(mailto:|https:)/.test(String(body.sub))) return "VAPID subject missing";
    } catch {
      return "malformed VAPID JWT";
    }
    return null;
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }
}
