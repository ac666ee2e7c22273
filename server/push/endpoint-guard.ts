import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import https from "node:https";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Push endpoints come from browsers, that is from anyone signed in: the server then POSTs to
 * them. So that nobody can point it at the inside of its own network (SSRF), an endpoint must
 * be https on a public host, checked twice: its text when it is saved (isAllowedPushEndpoint),
 * and every address its name resolves to when a push goes out (pushAgent's lookup), which
 * also defeats a name that resolves to a private address later (DNS rebinding).
 *
 * The only exception are the tests' own push services, plain http on 127.0.0.1, named in
 * PUSH_TEST_ORIGINS; config.ts empties that list in production, so the guard fails closed.
 */
export interface EndpointGuardOptions {
  /** Origins allowed as they are (tests); ignored when `production`. */
  testOrigins: readonly string[];
  production: boolean;
}

/**
 * The IPv4 addresses an IPv6 address leads to when it is a transition address (RFC 4291,
 * 3056, 4380, 6052, 6145); "local" for a network's own translator prefix; null otherwise.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | "local" | null {
  const bytes = address.toByteArray();
  const v4 = (at: number, inverted = false) =>
    new ipaddr.IPv4(bytes.slice(at, at + 4).map((byte) => (inverted ? byte ^ 0xff : byte)));
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  switch (address.range()) {
    case "ipv4Mapped":
    case "rfc6145":
      return [v4(12)];
    case "rfc6052":
      // 64:ff9b::/96 ends in the IPv4 address; 64:ff9b:1::/48 is a network's own (RFC 8215).
      return zeros(4, 12) ? [v4(12)] : "local";
    case "6to4":
      return [v4(2)];
    case "teredo":
      // The Teredo server, and the client (stored inverted).
      return [v4(4), v4(12, true)];
    default:
      // IPv4-compatible ::a.b.c.d (deprecated): ipaddr.js names no range for it.
      return zeros(0, 12) ? [v4(12)] : null;
  }
}

/**
 * True for every address but a public unicast one: loopback, private, link-local, shared,
 * reserved, documentation and multicast (ipaddr.js's ranges); an IPv6 address that carries
 * an IPv4 address (mapped, compatible, 6to4, NAT64, Teredo) is judged by the IPv4 address.
 */
export function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 0) return true;
  const parsed = ipaddr.parse(address);
  if (parsed instanceof ipaddr.IPv4) return parsed.range() !== "unicast";
  const embedded = embeddedIPv4(parsed);
  if (embedded === "local") return true;
  if (embedded) return embedded.some((v4) => v4.range() !== "unicast");
  return parsed.range() !== "unicast";
}

/** Host names that never lead outside: localhost and the private-use suffixes. */
function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return (
    name === "localhost" ||
    !name.includes(".") ||
    /\.(localhost|local|internal|intranet|lan|home|corp|private|home\.arpa)$/.test(name)
  );
}

/** Whether a push endpoint may be saved: https to a public host, or one of the tests' origins. */
export function isAllowedPushEndpoint(endpoint: string, options: EndpointGuardOptions): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (!options.production && options.testOrigins.includes(url.origin)) return true;
  if (url.protocol !== "https:" || url.username || url.password) return false;
  if (url.port && url.port !== "443") return false;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return !isPrivateAddress(host);
  return !isLocalName(host);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * dns.lookup that refuses a name with any private address among its answers (the check at
 * connect time, on the address really used).
 */
export function publicOnlyLookup(
  hostname: string,
  options: object,
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "");
    const list = addresses as LookupAddress[];
    const refused = list.find((entry) => isPrivateAddress(entry.address));
    if (refused || list.length === 0) {
      const problem: NodeJS.ErrnoException = new Error(
        `push endpoint ${hostname} resolves to a private address (${refused?.address ?? "none"})`,
      );
      problem.code = "EPUSHPRIVATE";
      return callback(problem, "");
    }
    if ((options as { all?: boolean }).all) return callback(null, list);
    const first = list[0]!;
    callback(null, first.address, first.family);
  });
}

/**
 * The agent pushes go out through: to a public address only, for every endpoint but the
 * tests' origins (outside production), which web-push reaches over plain http without it.
 */
export function pushAgent(): https.Agent {
  return new https.Agent({ keepAlive: true, maxSockets: 16, lookup: publicOnlyLookup as never });
}
