import { randomBytes } from "node:crypto";
import http from "node:http";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignedInOwner, signUpOwner, uniqueEmail } from "../../../tests/support/factories";
import { type TestResponse, type TestServer, startTestServer } from "../../../tests/support/server";
import { hashToken } from "../../auth/sessions";
import { randomStoredName } from "../../commands/set-user-image";
import { Client, Session, StoredFile, User } from "../../models";
import { contentDisposition, parseRange } from "./downloads";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

// ---- helpers ----

/** Someone who can call the API: an agent plus the cookie header of their session. */
interface Caller {
  id: string | null;
  get(urlPath: string, headers?: Record<string, string>): Promise<TestResponse>;
}

const asOwner = (owner: SignedInOwner): Caller => ({
  id: owner.id,
  get: (urlPath, headers) => owner.agent.get(urlPath, headers),
});

const anonymous = (): Caller => {
  const agent = server.agent();
  return { id: null, get: (urlPath, headers) => agent.get(urlPath, headers) };
};

/** A client user in `ownerId`'s conversation, signed in through a session made directly. */
async function clientOf(ownerId: string): Promise<Caller & { id: string; clientId: string }> {
  const user = await User.query().insertAndFetch({
    email: uniqueEmail("client"),
    fullName: "Cleo Client",
    role: "client",
    emailVerifiedAt: new Date(),
  });
  const client = await Client.query().insertAndFetch({
    ownerId,
    userId: user.id,
    name: "Cleo",
    email: user.email,
    joinedAt: new Date(),
  });
  await User.query().patch({ clientId: client.id }).where("id", user.id);
  const token = randomBytes(32).toString("base64url");
  await Session.query().insert({
    idHash: hashToken(token),
    userId: user.id,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  const agent = server.agent();
  const cookie = { cookie: `sid=${token}` };
  return {
    id: user.id,
    clientId: client.id,
    get: (urlPath, headers) => agent.get(urlPath, { ...cookie, ...headers }),
  };
}

/** Bytes in storage and their `files` row, as an upload would leave them. */
async function storeFile(options: {
  data: Buffer;
  contentType: string;
  originalName: string;
  uploadedBy: string | null;
  clientId?: string | null;
  extension?: string;
}): Promise<string> {
  const storedName = randomStoredName(options.extension ?? "bin");
  await server.services.storage.put(storedName, options.data);
  await StoredFile.query().insert({
    storedName,
    originalName: options.originalName,
    contentType: options.contentType,
    sizeBytes: options.data.length,
    uploadedBy: options.uploadedBy,
    clientId: options.clientId ?? null,
  });
  return storedName;
}

const uploadPicture = async (owner: SignedInOwner) => {
  const image = await sharp({
    create: { width: 320, height: 240, channels: 3, background: "#ff6600" },
  })
    .jpeg()
    .toBuffer();
  const body = new FormData();
  body.append("profilePicture", new Blob([image], { type: "image/jpeg" }), "Portrait of me.jpg");
  const response = await owner.agent.request("POST", "/api/user/profile-picture", { body });
  expect(response.status).toBe(200);
  return response.body.user.profilePicture as string;
};

/** A GET whose body is kept as bytes. */
async function fetchBytes(
  caller: { cookie?: string },
  urlPath: string,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${server.url}${urlPath}`, {
    headers: { ...(caller.cookie ? { cookie: caller.cookie } : {}), ...headers },
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** A GET with the path sent exactly as written (fetch would resolve ../ itself). */
function rawGet(
  rawPath: string,
  cookie: string,
): Promise<{ status: number; body: string; type: string }> {
  const target = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: "GET",
        path: rawPath,
        headers: { cookie },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (text: string) => {
          body += text;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            body,
            type: response.headers["content-type"] ?? "",
          }),
        );
      },
    );
    request.on("error", reject);
    request.end();
  });
}

const expectNotFound = (response: TestResponse) => {
  expect(response.status).toBe(404);
  expect(response.body).toEqual({ message: "Not found" });
};

// ---- tests ----

describe("GET /api/download/:filename for a profile picture", () => {
  let owner: SignedInOwner;
  let url: string;
  beforeAll(async () => {
    owner = await signUpOwner(server);
    url = await uploadPicture(owner);
  });

  it("serves the uploader the WebP with safe headers", async () => {
    const response = await fetchBytes({ cookie: owner.agent.cookieHeader }, url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("sandbox");
    expect(response.headers.get("cache-control")).toBe("private, max-age=3600");
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    // The name shown is the original one, with the extension of what is really stored.
    expect(response.headers.get("content-disposition")).toBe(
      `inline; filename="Portrait of me.webp"; filename*=UTF-8''Portrait%20of%20me.webp`,
    );
    expect(Number(response.headers.get("content-length"))).toBe(response.bytes.length);
    const image = await sharp(response.bytes).metadata();
    expect(image).toMatchObject({ format: "webp", width: 256, height: 256 });
  });

  it("answers HEAD with the headers and no body", async () => {
    const get = await fetchBytes({ cookie: owner.agent.cookieHeader }, url);
    const head = await owner.agent.request("HEAD", url);
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect(head.headers.get("content-type")).toBe("image/webp");
    expect(head.headers.get("content-length")).toBe(String(get.bytes.length));
    expect(head.headers.get("content-security-policy")).toBe("sandbox");
  });

  it("is 404 for another owner and for anonymous callers, exactly as for a missing file", async () => {
    const other = await signUpOwner(server, "Oscar Other");
    expectNotFound(await other.agent.get(url));
    expectNotFound(await anonymous().get(url));
    expectNotFound(await owner.agent.get(`/api/download/${randomStoredName("webp")}`));
    const head = await fetch(`${server.url}${url}`, { method: "HEAD" });
    expect(head.status).toBe(404);
    expect(head.headers.get("content-disposition")).toBeNull();
  });

  it("is served to the uploader's clients, not to another owner's clients", async () => {
    const mine = await clientOf(owner.id);
    const response = await mine.get(url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/webp");

    const otherOwner = await signUpOwner(server, "Oscar Other");
    const theirs = await clientOf(otherOwner.id);
    expectNotFound(await theirs.get(url));
  });

  it("serves a single byte range with 206 and the right bytes", async () => {
    const cookie = owner.agent.cookieHeader;
    const whole = (await fetchBytes({ cookie }, url)).bytes;
    const size = whole.length;
    expect(size).toBeGreaterThan(40);

    const first = await fetchBytes({ cookie }, url, { Range: "bytes=0-9" });
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-9/${size}`);
    expect(first.headers.get("content-length")).toBe("10");
    expect(first.headers.get("content-type")).toBe("image/webp");
    expect(first.bytes).toEqual(whole.subarray(0, 10));

    const middle = await fetchBytes({ cookie }, url, { Range: "bytes=12-29" });
    expect(middle.status).toBe(206);
    expect(middle.bytes).toEqual(whole.subarray(12, 30));

    const open = await fetchBytes({ cookie }, url, { Range: "bytes=20-" });
    expect(open.headers.get("content-range")).toBe(`bytes 20-${size - 1}/${size}`);
    expect(open.bytes).toEqual(whole.subarray(20));

    const suffix = await fetchBytes({ cookie }, url, { Range: "bytes=-7" });
    expect(suffix.status).toBe(206);
    expect(suffix.bytes).toEqual(whole.subarray(size - 7));

    const past = await fetchBytes({ cookie }, url, { Range: `bytes=10-${size + 100}` });
    expect(past.headers.get("content-range")).toBe(`bytes 10-${size - 1}/${size}`);
    expect(past.bytes).toEqual(whole.subarray(10));
  });

  it("answers 416 to an unsatisfiable range and ignores what it does not support", async () => {
    const cookie = owner.agent.cookieHeader;
    const whole = (await fetchBytes({ cookie }, url)).bytes;
    const size = whole.length;

    const beyond = await fetchBytes({ cookie }, url, { Range: `bytes=${size}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${size}`);

    for (const range of ["bytes=0-1,5-6", "items=0-1", "bytes=9-3", "bytes=abc"]) {
      const response = await fetchBytes({ cookie }, url, { Range: range });
      expect(response.status, range).toBe(200);
      expect(response.bytes).toEqual(whole);
    }
    // A Range for another version (If-Range) gets the whole file.
    const stale = await fetchBytes({ cookie }, url, {
      Range: "bytes=0-9",
      "If-Range": '"something-else"',
    });
    expect(stale.status).toBe(200);
    const current = await fetchBytes({ cookie }, url, {
      Range: "bytes=0-9",
      "If-Range": `"${url.split("/").pop()}"`,
    });
    expect(current.status).toBe(206);
  });

  it("answers 304 when the browser already has it", async () => {
    const cookie = owner.agent.cookieHeader;
    const first = await fetchBytes({ cookie }, url);
    const etag = first.headers.get("etag")!;
    expect(etag).toBeTruthy();
    const again = await fetchBytes({ cookie }, url, { "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
  });
});

describe("GET /api/download/:filename for a conversation file", () => {
  let owner: SignedInOwner;
  let client: Awaited<ReturnType<typeof clientOf>>;
  let otherClientSameOwner: Awaited<ReturnType<typeof clientOf>>;
  let otherOwner: SignedInOwner;
  let otherOwnersClient: Awaited<ReturnType<typeof clientOf>>;
  beforeAll(async () => {
    owner = await signUpOwner(server);
    client = await clientOf(owner.id);
    otherClientSameOwner = await clientOf(owner.id);
    otherOwner = await signUpOwner(server, "Oscar Other");
    otherOwnersClient = await clientOf(otherOwner.id);
  });

  it("is served to that conversation's owner and client only", async () => {
    const pdf = Buffer.from("%PDF-1.4\n% a small document\n%%EOF\n");
    const name = await storeFile({
      data: pdf,
      contentType: "application/pdf",
      originalName: "Brief.pdf",
      uploadedBy: owner.id,
      clientId: client.clientId,
      extension: "pdf",
    });
    const url = `/api/download/${name}`;
    for (const caller of [asOwner(owner), client]) {
      const response = await caller.get(url);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(response.headers.get("content-disposition")).toBe(
        `inline; filename="Brief.pdf"; filename*=UTF-8''Brief.pdf`,
      );
      expect(response.body).toBe(pdf.toString());
    }
    for (const caller of [
      otherClientSameOwner,
      asOwner(otherOwner),
      otherOwnersClient,
      anonymous(),
    ]) {
      expectNotFound(await caller.get(url));
    }
  });

  it("serves what a browser could run as an attachment, sandboxed, never sniffed", async () => {
    const name = await storeFile({
      data: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"),
      contentType: "image/svg+xml",
      originalName: 'Résumé "final"; v2.svg',
      uploadedBy: client.id,
      clientId: client.clientId,
      extension: "svg",
    });
    const response = await client.get(`/api/download/${name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("sandbox");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="R_sum_ _final__ v2.svg"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22%3B%20v2.svg`,
    );
    for (const [type, extension] of [
      ["text/html", "html"],
      ["application/octet-stream", "bin"],
      ["text/plain", "txt"],
    ]) {
      const stored = await storeFile({
        data: Buffer.from("<html><script>alert(1)</script></html>"),
        contentType: type!,
        originalName: `page.${extension}`,
        uploadedBy: owner.id,
        clientId: client.clientId,
        extension,
      });
      const answer = await asOwner(owner).get(`/api/download/${stored}`);
      expect(answer.headers.get("content-disposition"), type).toMatch(/^attachment; /);
      expect(answer.headers.get("content-security-policy")).toBe("sandbox");
    }
  });
});

describe("GET /api/download/:filename for a client user's own image", () => {
  it("is served to the client's owner, not to other owners", async () => {
    const owner = await signUpOwner(server);
    const client = await clientOf(owner.id);
    const image = await sharp({
      create: { width: 8, height: 8, channels: 3, background: "#00ff00" },
    })
      .png()
      .toBuffer();
    const name = await storeFile({
      data: image,
      contentType: "image/png",
      originalName: "me.png",
      uploadedBy: client.id,
      extension: "png",
    });
    expect((await client.get(`/api/download/${name}`)).status).toBe(200);
    expect((await asOwner(owner).get(`/api/download/${name}`)).status).toBe(200);
    const other = await signUpOwner(server, "Oscar Other");
    expectNotFound(await asOwner(other).get(`/api/download/${name}`));
    // A file whose uploader is gone is nobody's.
    const orphan = await storeFile({
      data: image,
      contentType: "image/png",
      originalName: "x.png",
      uploadedBy: null,
      extension: "png",
    });
    expectNotFound(await asOwner(owner).get(`/api/download/${orphan}`));
  });
});

describe("GET /api/download/:filename with a hostile name", () => {
  let owner: SignedInOwner;
  beforeAll(async () => {
    owner = await signUpOwner(server);
    await uploadPicture(owner);
  });

  it.each([
    "..%2F..%2Fpackage.json",
    "%2e%2e%2f%2e%2e%2fpackage.json",
    "%2e%2e",
    "..",
    "%2E%2E%5Cpackage.json",
    "package.json",
    "abc",
    `${"a".repeat(32)}.webp%00.png`,
    `${"A".repeat(32)}.WEBP`,
    "%252e%252e%252fpackage.json",
  ])("answers 404 JSON for /api/download/%s", async (filename) => {
    expectNotFound(await owner.agent.get(`/api/download/${filename}`));
  });

  it("answers 400 JSON for a malformed percent-escape, as every path does", async () => {
    const response = await owner.agent.get("/api/download/%E0%A4%A");
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: expect.stringContaining("Malformed URL") });
  });

  it.each([
    "/api/download/../../package.json",
    "/api/download/../user",
    "/api/download/./../../../etc/passwd",
  ])("answers 404 JSON for the raw path %s", async (rawPath) => {
    const response = await rawGet(rawPath, owner.agent.cookieHeader);
    expect(response.status).toBe(404);
    expect(response.type).toMatch(/application\/json/);
    expect(JSON.parse(response.body)).toEqual({ message: "Not found" });
  });
});

describe("parseRange", () => {
  it("reads one range and clamps it to the file", () => {
    expect(parseRange("bytes=0-0", 10)).toEqual({ start: 0, end: 0 });
    expect(parseRange("bytes=5-", 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange("bytes=-3", 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange("bytes=-30", 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange("bytes=2-1000", 10)).toEqual({ start: 2, end: 9 });
  });

  it("tells unsatisfiable from ignorable", () => {
    expect(parseRange("bytes=10-", 10)).toBe("unsatisfiable");
    expect(parseRange("bytes=-0", 10)).toBe("unsatisfiable");
    expect(parseRange("bytes=0-", 0)).toBe("unsatisfiable");
    expect(parseRange("bytes=-", 10)).toBeNull();
    expect(parseRange("bytes=3-1", 10)).toBeNull();
    expect(parseRange("bytes=0-1, 3-4", 10)).toBeNull();
    expect(parseRange("bytes=99999999999999999999-", 10)).toBeNull();
  });
});

describe("contentDisposition", () => {
  it("quotes nothing that could break out of the header", () => {
    expect(contentDisposition("attachment", 'a"b\\c;d%e\r\nSet-Cookie: x=1.txt')).toBe(
      `attachment; filename="a_b_c_d_e__Set-Cookie: x=1.txt"; filename*=UTF-8''a%22b%5Cc%3Bd%25e%0D%0ASet-Cookie%3A%20x%3D1.txt`,
    );
    expect(contentDisposition("inline", "naïve (1)'s *.png")).toBe(
      `inline; filename="na_ve (1)'s *.png"; filename*=UTF-8''na%C3%AFve%20%281%29%27s%20%2A.png`,
    );
  });
});
