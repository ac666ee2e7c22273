/**
 * A static update server on 127.0.0.1 for the updater's tests: serves latest-linux.yml and the
 * artifact as a generic electron-updater feed, and records every path asked for.
 */
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

// What electron-updater asks a generic feed for on Linux (x64 has no suffix).
export const channelFile =
  process.arch === "x64" ? "latest-linux.yml" : `latest-linux-${process.arch}.yml`;
export const artifactName = "clientdesk_1.0.1_amd64.deb";
export const artifact = randomBytes(256 * 1024);

export const sha512 = (bytes: Buffer) => createHash("sha512").update(bytes).digest("base64");

/** latest-linux.yml as electron-builder writes it, for `version` of the artifact. */
export function latestYml(version: string, checksum = sha512(artifact)): string {
  return [
    `version: ${version}`,
    "files:",
    `  - url: ${artifactName}`,
    `    sha512: ${checksum}`,
    `    size: ${artifact.length}`,
    `path: ${artifactName}`,
    `sha512: ${checksum}`,
    "releaseDate: '2026-11-26T05:00:00.000Z'",
    "",
  ].join("\n");
}

export interface UpdateServer {
  /** The feed's address (as in publish.url, without a trailing slash). */
  url: string;
  /** Every path asked for, in order. */
  requests: string[];
  /** How many times `file` of the feed was asked for. */
  asked(file: string): number;
  close(): Promise<void>;
}

/** Serves `files` under /clientdesk/linux/x64/. */
export async function startUpdateServer(
  files: Record<string, string | Buffer>,
): Promise<UpdateServer> {
  const requests: string[] = [];
  const base = "/clientdesk/linux/x64/";
  const server = http.createServer((request, response) => {
    const { pathname } = new URL(request.url ?? "/", "http://127.0.0.1");
    requests.push(pathname);
    const body = pathname.startsWith(base) ? files[pathname.slice(base.length)] : undefined;
    if (body === undefined) response.writeHead(404).end();
    else response.writeHead(200, { "content-length": Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}${base.slice(0, -1)}`,
    requests,
    asked: (file) => requests.filter((request) => request === base + file).length,
    close: () => {
      closed ??= new Promise((resolve) => server.close(() => resolve()));
      return closed;
    },
  };
}
