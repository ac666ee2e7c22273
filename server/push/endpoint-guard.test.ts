import { describe, expect, it } from "vitest";
import { isAllowedPushEndpoint, isPrivateAddress, publicOnlyLookup } from "./endpoint-guard";

const production = { testOrigins: [], production: true };

describe("isAllowedPushEndpoint", () => {
  it("allows https endpoints of public push services", () => {
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc:APA91b",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
      "https://web.push.apple.com/QGx1",
      "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD",
      "https://8.8.8.8/push",
    ])
      expect(isAllowedPushEndpoint(endpoint, production), endpoint).toBe(true);
  });

  it("refuses plain http, other ports, credentials, loopback, private and link-local hosts", () => {
    for (const endpoint of [
      "http://fcm.googleapis.com/fcm/send/abc",
      "https://fcm.googleapis.com:8443/fcm/send/abc",
      "https://user:secret@fcm.googleapis.com/x",
      "https://localhost/x",
      "https://app.localhost/x",
      "https://127.0.0.1/x",
      "https://127.1.2.3/x",
      "https://0.0.0.0/x",
      "https://10.1.2.3/x",
      "https://172.16.0.1/x",
      "https://192.168.1.1/x",
      "https://100.64.0.1/x",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/x",
      "https://[fd00::1]/x",
      "https://[fe80::1]/x",
      "https://[::ffff:127.0.0.1]/x",
      "https://metadata.google.internal/x",
      "https://printer.local/x",
      "https://intranet/x",
      "file:///etc/passwd",
      "not a url",
    ])
      expect(isAllowedPushEndpoint(endpoint, production), endpoint).toBe(false);
  });

  it("allows the tests' own loopback origins outside production only: fails closed in production", () => {
    const origin = "http://127.0.0.1:4567";
    expect(
      isAllowedPushEndpoint(`${origin}/push/1`, { testOrigins: [origin], production: false }),
    ).toBe(true);
    expect(
      isAllowedPushEndpoint(`${origin}/push/1`, { testOrigins: [origin], production: true }),
    ).toBe(false);
    expect(
      isAllowedPushEndpoint("http://127.0.0.1:4568/push/1", {
        testOrigins: [origin],
        production: false,
      }),
    ).toBe(false);
  });
});

describe("IPv6 literals that carry an IPv4 address", () => {
  it("refuses them when the IPv4 address is private, as the IPv4 address itself", () => {
    for (const endpoint of [
      "https://[::ffff:10.0.0.1]/x", // IPv4-mapped
      "https://[::ffff:a9fe:a9fe]/latest/meta-data", // mapped 169.254.169.254, in hex
      "https://[::10.0.0.1]/x", // IPv4-compatible
      "https://[::127.0.0.1]/x",
      "https://[::ffff:0:192.168.1.1]/x", // SIIT (RFC 6145)
      "https://[2002:a00:1::1]/x", // 6to4 of 10.0.0.1
      "https://[2002:7f00:1::]/x", // 6to4 of 127.0.0.1
      "https://[2002:a9fe:a9fe::1]/x", // 6to4 of 169.254.169.254
      "https://[64:ff9b::10.0.0.1]/x", // NAT64 (RFC 6052)
      "https://[64:ff9b::a9fe:a9fe]/x",
      "https://[64:ff9b:1::808:808]/x", // a network's own NAT64 prefix (RFC 8215)
      "https://[2001:0:a00:1:8000:63bf:f7f7:f7f7]/x", // Teredo, server 10.0.0.1
      "https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/x", // Teredo, client 10.0.0.1
      "https://[fec0::1]/x", // site-local (deprecated)
    ])
      expect(isAllowedPushEndpoint(endpoint, production), endpoint).toBe(false);
  });

  it("allows them when the IPv4 address is public, as the IPv4 address itself", () => {
    for (const endpoint of [
      "https://[::ffff:8.8.8.8]/x",
      "https://[2002:808:808::1]/x",
      "https://[64:ff9b::8.8.8.8]/x",
      "https://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/x", // Teredo, client 8.8.8.8
      "https://[2a00:1450:4007:80e::200a]/x",
    ])
      expect(isAllowedPushEndpoint(endpoint, production), endpoint).toBe(true);
  });
});

describe("isPrivateAddress", () => {
  it("tells public addresses from the rest", () => {
    expect(isPrivateAddress("142.250.74.78")).toBe(false);
    expect(isPrivateAddress("2a00:1450:4007:80e::200a")).toBe(false);
    for (const address of [
      "127.0.0.1",
      "10.0.0.1",
      "::1",
      "::ffff:10.0.0.1",
      "::ffff:a00:1",
      "2002:c0a8:101::",
      "64:ff9b::7f00:1",
      "2001:0:c0a8:101::",
      "fc00::5",
      "224.0.0.1",
      "not-an-ip",
    ])
      expect(isPrivateAddress(address), address).toBe(true);
  });
});

describe("publicOnlyLookup (at connect time)", () => {
  it("refuses a name that resolves to a loopback address", async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      publicOnlyLookup("localhost", {}, (problem) => resolve(problem)),
    );
    expect(error?.code).toBe("EPUSHPRIVATE");
  });
});
