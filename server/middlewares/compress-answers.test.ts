import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient, type JoinedClient } from "../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../tests/support/factories";
import { rawRequest } from "../../tests/support/raw-get";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { COMPRESS_THRESHOLD_BYTES } from "./compress-answers";

/**
 * JSON answers of the API of 1 KB or more go out compressed when the caller asks (brotli
 * preferred, then gzip); smaller ones, users' file downloads, the probes and /metrics as they are.
 */
const METRICS_TOKEN = "metrics-token-for-the-compression-test";
let server: TestServer;
let owner: SignedInOwner;
let client: JoinedClient;
let pdfFile: { url: string; bytes: Buffer };

beforeAll(async () => {
  server = await startTestServer({ env: { METRICS_TOKEN: METRICS_TOKEN } });
  owner = await signUpOwner(server);
  client = await addJoinedClient(server, owner);
  for (let i = 1; i <= 12; i += 1) {
    const sent = await owner.agent.post(`/api/clients/${client.id}/messages`, {
      content: `Message ${i}: the second draft of the brochure is attached, with the new photos.`,
    });
    expect(sent.status).toBe(201);
  }
  // A user's file of very compressible bytes: it still goes out as stored.
  const bytes = Buffer.from(`%PDF-1.4\n${"1 0 obj << /Type /Page >> endobj\n".repeat(200)}%%EOF\n`);
  const body = new FormData();
  body.append("file", new Blob([new Uint8Array(bytes)], { type: "application/pdf" }), "brief.pdf");
  const uploaded = await client.agent.request("POST", `/api/clients/${client.id}/upload`, { body });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  pdfFile = { url: uploaded.body.fileUrl, bytes };
});
afterAll(() => server?.close());

const asOwner = (urlPath: string, acceptEncoding?: string, headers: Record<string, string> = {}) =>
  rawRequest(`${server.url}${urlPath}`, {
    headers: {
      cookie: owner.agent.cookieHeader,
      ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}),
      ...headers,
    },
  });

describe("API answers", () => {
  const messages = () => `/api/clients/${client.id}/messages`;

  it("a JSON answer over the threshold is brotli when asked, with Vary, the same JSON inside", async () => {
    const plain = await asOwner(messages());
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    expect(Number(plain.headers["content-length"])).toBe(plain.body.length);

    const br = await asOwner(messages(), "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers["content-type"]).toMatch(/^application\/json/);
    // The route's own headers and the security headers survive compression.
    expect(br.headers["x-has-more"]).toBe("false");
    expect(br.headers["cache-control"]).toBe("no-store");
    expect(br.headers["content-security-policy"]).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(br.headers["x-content-type-options"]).toBe("nosniff");
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(
      JSON.parse(plain.body.toString()),
    );
  });

  it("is gzip for a caller that takes gzip only", async () => {
    const gzip = await asOwner(messages(), "gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gzip.body).toString())).toHaveLength(13); // 12 messages and the file
  });

  it("an answer to a cross-site request is never compressed (BREACH: no size to measure)", async () => {
    const crossSite = await asOwner(messages(), "gzip, deflate, br", {
      "sec-fetch-site": "cross-site",
    });
    expect(crossSite.status).toBe(200);
    expect(crossSite.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(crossSite.body.toString())).toHaveLength(13);
    const sameOrigin = await asOwner(messages(), "gzip, deflate, br", {
      "sec-fetch-site": "same-origin",
    });
    expect(sameOrigin.headers["content-encoding"]).toBe("br");
  });

  it("an answer under the threshold goes out as it is, even when compression is asked for", async () => {
    const user = await asOwner("/api/user", "gzip, deflate, br");
    expect(user.status).toBe(200);
    expect(user.body.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(user.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(user.body.toString())).toMatchObject({ id: owner.id });
  });

  it("a user's file download is never compressed: its bytes, its length", async () => {
    const download = await asOwner(pdfFile.url, "gzip, deflate, br");
    expect(download.status).toBe(200);
    expect(download.headers["content-encoding"]).toBeUndefined();
    expect(Number(download.headers["content-length"])).toBe(pdfFile.bytes.length);
    expect(download.body.equals(pdfFile.bytes)).toBe(true);
    expect(download.headers.etag).toBeTruthy();
  });

  it("the probes and /metrics still answer", async () => {
    const health = await asOwner("/healthz", "br");
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body.toString())).toEqual({ status: "ok" });
    const ready = await asOwner("/readyz", "br");
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body.toString())).toEqual({ status: "ready" });
    const metrics = await asOwner("/metrics", "br", { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(metrics.status).toBe(200);
    expect(metrics.headers["content-encoding"]).toBeUndefined();
    expect(metrics.body.toString()).toMatch(/^# HELP/m);
  });
});
