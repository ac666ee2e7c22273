import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../../tests/support/raw-get";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { acceptedEncodings } from "./accept-encoding";

/**
 * The built web app (dist/web, built by the test setup with scripts/build.mjs) goes out as the
 * build compressed it: brotli when accepted, else gzip, else as it is; never compressed per
 * request. Checked on the real build: the client portal's script and its HTML page.
 */
const dist = path.resolve("dist/web");
const portalHtml = readFileSync(path.join(dist, "client.html"));
const portalScript = /src="(\/assets\/[^"]+\.js)"/.exec(portalHtml.toString())?.[1] ?? "";
const BROWSER = "gzip, deflate, br, zstd";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const get = (urlPath: string, acceptEncoding?: string, extra: Record<string, string> = {}) =>
  rawRequest(`${server.url}${urlPath}`, {
    headers: {
      ...(acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding }),
      ...extra,
    },
  });

describe("the built web app's assets", () => {
  const raw = readFileSync(path.join(dist, portalScript));

  it("go out as brotli to a browser, with Vary, the compressed length and a year's cache", async () => {
    const answer = await get(portalScript, BROWSER);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(answer.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
    expect(answer.body.length).toBeLessThan(raw.length / 2);
    expect(brotliDecompressSync(answer.body).equals(raw)).toBe(true);
  });

  it("go out as gzip when brotli is not accepted (or refused with q=0)", async () => {
    for (const header of ["gzip", "br;q=0, gzip", "gzip, deflate"]) {
      const answer = await get(portalScript, header);
      expect(answer.headers["content-encoding"], header).toBe("gzip");
      expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
      expect(gunzipSync(answer.body).equals(raw)).toBe(true);
    }
  });

  it("go out as they are without Accept-Encoding, or when it names neither", async () => {
    for (const header of [undefined, "identity", "deflate", "br;q=0, gzip;q=0"]) {
      const answer = await get(portalScript, header);
      expect(answer.headers["content-encoding"], String(header)).toBeUndefined();
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(answer.headers["content-length"])).toBe(raw.length);
      expect(answer.body.equals(raw)).toBe(true);
    }
  });

  it("answer HEAD with the chosen variant's headers and no body", async () => {
    const answer = await rawRequest(`${server.url}${portalScript}`, {
      method: "HEAD",
      headers: { "accept-encoding": BROWSER },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(Number(answer.headers["content-length"])).toBe(
      statSync(path.join(dist, `${portalScript}.br`)).size,
    );
    expect(answer.body.length).toBe(0);
  });

  it("a file too small to gain from compression goes out as it is, still with Vary", async () => {
    const favicon = readFileSync(path.join(dist, "favicon.svg"));
    expect(favicon.length).toBeLessThan(1024);
    const answer = await get("/favicon.svg", BROWSER);
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(answer.body.equals(favicon)).toBe(true);
  });
});

describe("the HTML pages", () => {
  const clientId = "3f2c1a6e-8b7d-4c5e-9f0a-1b2c3d4e5f60";

  it("go out precompressed too, by Accept-Encoding, never cached without asking", async () => {
    const br = await get(`/client/${clientId}`, BROWSER);
    expect(br.status).toBe(200);
    expect(br.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers["cache-control"]).toBe("no-cache");
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(brotliDecompressSync(br.body).equals(portalHtml)).toBe(true);

    const gzip = await get("/invite/some-token", "gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).equals(portalHtml)).toBe(true);

    const plain = await get("/");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(readFileSync(path.join(dist, "index.html")))).toBe(true);
  });

  it("answer 304 to a revisit with the variant's ETag; another variant has another ETag", async () => {
    const first = await get("/pricing", BROWSER);
    const etag = String(first.headers.etag);
    const again = await get("/pricing", BROWSER, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const gzip = await get("/pricing", "gzip");
    expect(gzip.headers.etag).not.toBe(etag);
    expect((await get("/pricing", "gzip", { "if-none-match": etag })).status).toBe(200);
  });

  it("name the portal's first data in a Link preload on a conversation's address only", async () => {
    const page = await get(`/client/${clientId}`, BROWSER);
    expect(page.headers.link).toBe(
      `</api/portal/${clientId}>; rel=preload; as=fetch; crossorigin=use-credentials`,
    );
    for (const other of ["/client/sign-in", "/client/not-an-id", "/invite/abc", "/pricing"]) {
      expect((await get(other, BROWSER)).headers.link, other).toBeUndefined();
    }
  });

  it("name the dashboard's first data in a Link preload on / (with the client it names, if any)", async () => {
    const dashboard = (query: string) =>
      `</api/dashboard${query}>; rel=preload; as=fetch; crossorigin=use-credentials`;
    const open = await get(`/?client=${clientId}`, BROWSER);
    expect(open.status).toBe(200);
    expect(open.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(open.headers.link).toBe(dashboard(`?client=${clientId}`));
    expect((await get(`/?client=${clientId}&message=${clientId}`, BROWSER)).headers.link).toBe(
      dashboard(`?client=${clientId}`),
    );
    for (const list of ["/", "/?client=not-an-id", "/?settings=notifications"]) {
      expect((await get(list, BROWSER)).headers.link, list).toBe(dashboard(""));
    }
    for (const other of ["/auth", "/pricing", "/subscribe", "/no-such-page"]) {
      expect((await get(other, BROWSER)).headers.link, other).toBeUndefined();
    }
  });

  it("keep the page's security headers", async () => {
    const page = await get(`/client/${clientId}`, BROWSER);
    expect(page.headers["content-security-policy"]).toMatch(/default-src 'self'/);
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
  });
});

describe("acceptedEncodings", () => {
  it("prefers brotli, then gzip, among those the header accepts", () => {
    expect(acceptedEncodings("gzip, deflate, br")).toEqual(["br", "gzip"]);
    expect(acceptedEncodings("gzip;q=1.0, br;q=0.5")).toEqual(["br", "gzip"]);
    expect(acceptedEncodings("br;q=0, gzip")).toEqual(["gzip"]);
    expect(acceptedEncodings("*")).toEqual(["br", "gzip"]);
    expect(acceptedEncodings("*, br;q=0")).toEqual(["gzip"]);
    expect(acceptedEncodings("identity")).toEqual([]);
    expect(acceptedEncodings(undefined)).toEqual([]);
    expect(acceptedEncodings("")).toEqual([]);
  });
});
