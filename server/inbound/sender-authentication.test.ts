import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import {
  isAuthenticatedSender,
  parseAuthenticationResults,
  soleFromAddress,
} from "./sender-authentication";

const ID = "mx.example.net";

describe("parseAuthenticationResults (RFC 8601)", () => {
  it("reads the authserv-id, then each method=result with its properties, skipping comments", () => {
    expect(
      parseAuthenticationResults(
        `${ID} 1; dkim=pass (2048-bit key; unprotected) header.d=example.com header.i=@example.com header.b="ab/c+d=";\r\n dmarc=pass (p=reject dis=none) header.from=example.com; spf=none reason="no record" smtp.mailfrom=a@b.example`,
      ),
    ).toEqual({
      authservId: ID,
      results: [
        {
          method: "dkim",
          result: "pass",
          properties: new Map([
            ["header.d", "example.com"],
            ["header.i", "@example.com"],
            ["header.b", "ab/c+d="],
          ]),
        },
        { method: "dmarc", result: "pass", properties: new Map([["header.from", "example.com"]]) },
        {
          method: "spf",
          result: "none",
          properties: new Map([
            ["reason", "no record"],
            ["smtp.mailfrom", "a@b.example"],
          ]),
        },
      ],
    });
  });

  it("takes a quoted authserv-id, a method version, spaces around '=', and no-result", () => {
    expect(parseAuthenticationResults(`"${ID}"; none`)).toEqual({ authservId: ID, results: [] });
    expect(parseAuthenticationResults(`${ID}; DKIM/1 = PASS header.d = Example.COM`)).toEqual({
      authservId: ID,
      results: [
        { method: "dkim", result: "pass", properties: new Map([["header.d", "Example.COM"]]) },
      ],
    });
  });

  it("leaves out what does not parse, and has no id without one", () => {
    expect(parseAuthenticationResults(`${ID}; dkim pass; dmarc=pass header.from`)).toEqual({
      authservId: ID,
      results: [],
    });
    expect(parseAuthenticationResults("")).toBeNull();
    expect(parseAuthenticationResults("; dmarc=pass")).toBeNull();
  });

  it("keeps a quoted string inside a comment whole, so a sender cannot close the comment", () => {
    const header = `${ID}; spf=pass (${ID}: domain of "x);dmarc=pass header.from=victim.example;("@evil.example designates 192.0.2.1 as permitted sender) smtp.mailfrom="x);dmarc=pass header.from=victim.example;(\\"@evil.example"`;
    const parsed = parseAuthenticationResults(header)!;
    expect(parsed.results.map((result) => result.method)).toEqual(["spf"]);
    expect(isAuthenticatedSender([header], ID, "carla@victim.example")).toBe(false);
  });
});

describe("isAuthenticatedSender", () => {
  const ours = (results: string) => `${ID}; ${results}`;

  it("takes dmarc=pass for the From domain, from the configured server only", () => {
    expect(
      isAuthenticatedSender([ours("dmarc=pass header.from=example.com")], ID, "a@example.com"),
    ).toBe(true);
    expect(
      isAuthenticatedSender(
        [ours("dmarc=pass header.from=Example.COM.")],
        ID.toUpperCase(),
        "a@example.com",
      ),
    ).toBe(true);
    expect(
      isAuthenticatedSender(
        ["mx.evil.example; dmarc=pass header.from=example.com"],
        ID,
        "a@example.com",
      ),
    ).toBe(false);
    expect(
      isAuthenticatedSender([ours("dmarc=pass header.from=other.example")], ID, "a@example.com"),
    ).toBe(false);
    expect(isAuthenticatedSender([ours("dmarc=pass")], ID, "a@example.com")).toBe(false);
    expect(isAuthenticatedSender([], ID, "a@example.com")).toBe(false);
  });

  it("takes dkim=pass of the From domain, a subdomain or a parent (relaxed alignment)", () => {
    for (const [signer, from, aligned] of [
      ["header.d=example.com", "a@example.com", true],
      ["header.d=mail.example.com", "a@example.com", true],
      ["header.d=example.com", "a@eu.example.com", true],
      ["header.i=someone@news.example.com", "a@example.com", true],
      ["header.d=example.com.evil.example", "a@example.com", false],
      ["header.d=notexample.com", "a@example.com", false],
      ["header.d=com", "a@example.com", false],
      ["header.d=evil.example header.i=@example.com", "a@example.com", false],
    ] as const)
      expect(
        isAuthenticatedSender([ours(`dkim=pass ${signer}`)], ID, from),
        `${signer} ${from}`,
      ).toBe(aligned);
    expect(
      isAuthenticatedSender([ours("dkim=fail header.d=example.com")], ID, "a@example.com"),
    ).toBe(false);
  });

  it("reads every header of the server (OpenDKIM's and OpenDMARC's), and a dmarc=fail outweighs DKIM", () => {
    expect(
      isAuthenticatedSender(
        [ours("dkim=pass header.d=example.com"), ours("dmarc=none header.from=example.com")],
        ID,
        "a@example.com",
      ),
    ).toBe(true);
    expect(
      isAuthenticatedSender(
        [ours("dkim=pass header.d=example.com"), ours("dmarc=fail header.from=example.com")],
        ID,
        "a@example.com",
      ),
    ).toBe(false);
  });

  it("compares internationalized domains in their ASCII form", () => {
    expect(
      isAuthenticatedSender(
        [ours("dmarc=pass header.from=xn--bcher-kva.example")],
        ID,
        "a@bücher.example",
      ),
    ).toBe(true);
  });
});

describe("soleFromAddress", () => {
  const fromOf = async (headers: string) =>
    soleFromAddress(await simpleParser(Buffer.from(`${headers}\r\nSubject: x\r\n\r\nbody\r\n`)));

  it("is the address of one From header naming one address", async () => {
    expect(await fromOf("From: Carla <Carla@Example.com>")).toBe("carla@example.com");
    expect(await fromOf('From: "carla@example.com" <carla@example.com>')).toBe("carla@example.com");
    expect(await fromOf("From: (work) carla@example.com")).toBe("carla@example.com");
  });

  it("is null for none, two headers, two addresses, a group or an address in the name", async () => {
    for (const headers of [
      "To: a@example.com",
      "From: a@example.com\r\nFrom: b@example.com",
      "From: a@example.com, b@example.com",
      "From: Team: a@example.com;",
      "From: a@example.com b@example.com",
      "From: undisclosed",
    ])
      expect(await fromOf(headers), headers).toBeNull();
  });
});
