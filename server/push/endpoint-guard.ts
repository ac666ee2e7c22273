import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import https from "node:https";
import { BlockList, isIP } from "node:net";

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

// Two lists: Node's BlockList matches an IPv4 address against IPv4-mapped IPv6 rules too.
const PRIVATE_V4 = new BlockList();
const PRIVATE_V6 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  PRIVATE_V4.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  PRIVATE_V6.addSubnet(network, prefix, "ipv6");

/** True for loopback, private, link-local, shared, documentation and multicast addresses. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    // An IPv4-mapped address is judged as the IPv4 address it carries.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped) return PRIVATE_V4.check(mapped, "ipv4");
    if (/^::ffff:/i.test(address)) return true;
    return PRIVATE_V6.check(address, "ipv6");
  }
  return PRIVATE_V4.check(address, "ipv4");
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
