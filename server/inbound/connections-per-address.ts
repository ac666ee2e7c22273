import ipaddr from "ipaddr.js";

/** Connections one address (an IPv6 /64) may hold open at once; the next is answered 421. */
export const MAX_CONNECTIONS_PER_ADDRESS = 10;

/**
 * Open connections counted per client address, so that one sender cannot take every place
 * of the listener (maxClients). IPv6 counts per /64: a single host commonly has the whole
 * network and could otherwise open each connection from a new address.
 */
export class ConnectionsPerAddress {
  private readonly open = new Map<string, number>();
  private readonly holders = new Map<string, string>();

  constructor(private readonly limit = MAX_CONNECTIONS_PER_ADDRESS) {}

  /** Takes a place for the connection `id`; false when its address holds them all. */
  take(id: string, remoteAddress: string): boolean {
    const key = networkOf(remoteAddress);
    const count = this.open.get(key) ?? 0;
    if (count >= this.limit) return false;
    this.open.set(key, count + 1);
    this.holders.set(id, key);
    return true;
  }

  /** Gives back the place of connection `id` (nothing when it had none). */
  release(id: string): void {
    const key = this.holders.get(id);
    if (key === undefined) return;
    this.holders.delete(id);
    const count = (this.open.get(key) ?? 1) - 1;
    if (count > 0) this.open.set(key, count);
    else this.open.delete(key);
  }
}

function networkOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed instanceof ipaddr.IPv4) return parsed.toString();
  return `${parsed.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(":")}::/64`;
}
