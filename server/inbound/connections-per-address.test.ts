import { describe, expect, it } from "vitest";
import { ConnectionsPerAddress } from "./connections-per-address";

describe("ConnectionsPerAddress", () => {
  it("gives each address its own places, and a place back when its connection closes", () => {
    const connections = new ConnectionsPerAddress(2);
    expect(connections.take("a", "192.0.2.1")).toBe(true);
    expect(connections.take("b", "192.0.2.1")).toBe(true);
    expect(connections.take("c", "192.0.2.1")).toBe(false);
    expect(connections.take("d", "192.0.2.2")).toBe(true);
    connections.release("c"); // refused: held nothing
    expect(connections.take("e", "192.0.2.1")).toBe(false);
    connections.release("a");
    expect(connections.take("f", "192.0.2.1")).toBe(true);
  });

  it("counts IPv6 per /64, and an IPv4-mapped address as its IPv4 address", () => {
    const connections = new ConnectionsPerAddress(2);
    expect(connections.take("a", "2001:db8:1:2::1")).toBe(true);
    expect(connections.take("b", "2001:db8:1:2:ffff::9")).toBe(true);
    expect(connections.take("c", "2001:db8:1:2::abcd")).toBe(false);
    expect(connections.take("d", "2001:db8:1:3::1")).toBe(true);
    expect(connections.take("e", "::ffff:192.0.2.1")).toBe(true);
    expect(connections.take("f", "192.0.2.1")).toBe(true);
    expect(connections.take("g", "192.0.2.1")).toBe(false);
  });
});
