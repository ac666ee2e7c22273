import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { crc32 } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMAGE_UPLOAD_MAX_BYTES } from "../../../shared/files";
import { signUpOwner, uniqueEmail } from "../../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import { storedKeys } from "../../../tests/support/storage-files";
import { hashToken } from "../../auth/sessions";
import { Client, Session, StoredFile, User } from "../../models";
import { cleanFileName } from "../../uploads/multipart";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

// ---- fixtures, made with sharp in the test ----

const png = (width: number, height: number, background = "#0093ffcc") =>
  sharp({ create: { width, height, channels: 4, background } })
    .png()
    .toBuffer();

/** A valid PNG of exactly `size` bytes: padding goes into a private ancillary chunk. */
async function pngOfSize(size: number): Promise<Buffer> {
  const base = await png(64, 64);
  const iend = base.length - 12;
  const data = Buffer.alloc(size - base.length - 12);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from("prVt", "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  const result = Buffer.concat([
    base.subarray(0, iend),
    length,
    typeAndData,
    crc,
    base.subarray(iend),
  ]);
  expect(result.length).toBe(size);
  return result;
}

const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
);
const HTML = Buffer.from(
  "<!doctype html><html><body><script>alert(document.cookie)</script></body></html>",
);
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
);

// ---- helpers ----

interface Part {
  field: string;
  data?: Buffer;
  filename?: string;
  type?: string;
  value?: string;
}

function form(...parts: Part[]): FormData {
  const body = new FormData();
  for (const part of parts) {
    if (part.data) {
      body.append(
        part.field,
        new Blob([new Uint8Array(part.data)], { type: part.type ?? "image/png" }),
        part.filename ?? "image.png",
      );
    } else {
      body.append(part.field, part.value ?? "");
    }
  }
  return body;
}

const postForm = (
  agent: TestAgent,
  urlPath: string,
  body: FormData | string,
  headers?: Record<string, string>,
) => agent.request("POST", urlPath, { body, headers });

const uploadPicture = (agent: TestAgent, data: Buffer, filename = "me.png", type = "image/png") =>
  postForm(
    agent,
    "/api/user/profile-picture",
    form({ field: "profilePicture", data, filename, type }),
  );

const uploadLogo = (agent: TestAgent, data: Buffer, filename = "logo.png") =>
  postForm(agent, "/api/user/company-logo", form({ field: "companyLogo", data, filename }));

/** Every key under the server's storage directory, partial writes included. */
const storedFiles = () => storedKeys(server.dataDir);

const storedPath = (name: string) => path.join(server.dataDir, "files", name.slice(0, 2), name);
const nameFromUrl = (url: string) => url.replace("/api/download/", "");

/** The user's row and files rows, to compare before and after a refused upload. */
async function snapshot(userId: string) {
  const user = await User.query().findById(userId);
  const rows = await StoredFile.query().where("uploadedBy", userId).orderBy("storedName");
  return {
    profilePicture: user?.profilePicture,
    companyLogo: user?.companyLogo,
    rows: rows.map((row) => row.storedName),
    files: storedFiles(),
  };
}

/** A client user of `ownerId`'s, signed in: rows and a session made directly. */
async function signedInClientOf(ownerId: string) {
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
  return { user, cookie: `sid=${token}` };
}

interface RawUploadResult {
  status: number;
  body: string;
  sentBytes: number;
}

/**
 * Streams a multipart upload with node:http, `chunkBytes` at a time up to `totalBytes`, and
 * stops writing as soon as the server answers.
 */
function rawUpload(
  cookie: string,
  options: { totalBytes: number; chunkBytes?: number; contentLength?: number; head?: Buffer },
): Promise<RawUploadResult> {
  const boundary = `----raw${randomUUID()}`;
  const target = new URL(server.url);
  return new Promise((resolve, reject) => {
    let sentBytes = 0;
    let answered = false;
    const headers: Record<string, string> = {
      cookie,
      origin: server.origin,
      "content-type": `multipart/form-data; boundary=${boundary}`,
    };
    if (options.contentLength !== undefined)
      headers["content-length"] = String(options.contentLength);
    const request = http.request({
      host: target.hostname,
      port: target.port,
      method: "POST",
      path: "/api/user/profile-picture",
      headers,
    });
    request.on("response", (response) => {
      answered = true;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (text: string) => {
        body += text;
      });
      response.on("end", () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, body, sentBytes });
      });
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const preamble = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="profilePicture"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    request.write(Buffer.concat([preamble, options.head ?? Buffer.alloc(0)]));
    const chunk = Buffer.alloc(options.chunkBytes ?? 256 * 1024);
    const pump = async () => {
      while (!answered && sentBytes < options.totalBytes) {
        const flushed = request.write(chunk);
        sentBytes += chunk.length;
        if (!flushed) {
          await new Promise<void>((done) => {
            request.once("drain", done);
            request.once("response", () => done());
            request.once("close", () => done());
          });
        }
        // Gives the response a chance to arrive between chunks.
        await new Promise((done) => setImmediate(done));
      }
    };
    pump().catch(reject);
  });
}

// ---- tests ----

describe("POST /api/user/profile-picture", () => {
  it("stores a re-encoded 256x256 WebP under a random name and shows it on the user", async () => {
    const owner = await signUpOwner(server);
    const response = await uploadPicture(owner.agent, await png(600, 400), "Holiday photo.png");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      message: "Profile picture updated successfully",
    });
    const url: string = response.body.user.profilePicture;
    expect(url).toMatch(/^\/api\/download\/[0-9a-f]{32}\.webp$/);
    expect(response.body.user).toMatchObject({ id: owner.id, email: owner.email });

    const me = await owner.agent.get("/api/user");
    expect(me.body.profilePicture).toBe(url);

    const name = nameFromUrl(url);
    const row = await StoredFile.query().findOne({ storedName: name });
    expect(row).toMatchObject({
      originalName: "Holiday photo.png",
      contentType: "image/webp",
      uploadedBy: owner.id,
      clientId: null,
    });
    const onDisk = await sharp(storedPath(name)).metadata();
    expect(onDisk).toMatchObject({ format: "webp", width: 256, height: 256 });
    expect(Number(row!.sizeBytes)).toBe(statSync(storedPath(name)).size);

    const download = await owner.agent.get(url);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/webp");
  });

  it("accepts JPEG, WebP and GIF by content, whatever the declared type and name", async () => {
    const owner = await signUpOwner(server);
    const base = sharp({ create: { width: 300, height: 300, channels: 3, background: "#ff8800" } });
    for (const [data, filename] of [
      [await base.clone().jpeg().toBuffer(), "photo.jpeg"],
      [await base.clone().webp().toBuffer(), "photo.webp"],
      [await base.clone().gif().toBuffer(), "photo.gif"],
      [await base.clone().png().toBuffer(), "no-extension"],
    ] as const) {
      const response = await uploadPicture(owner.agent, data, filename, "application/octet-stream");
      expect(response.status, filename).toBe(200);
    }
  });

  it("replaces the previous picture, deleting its file and row", async () => {
    const owner = await signUpOwner(server);
    const first = nameFromUrl(
      (await uploadPicture(owner.agent, await png(300, 300, "#ff0000"))).body.user.profilePicture,
    );
    expect(existsSync(storedPath(first))).toBe(true);
    const second = nameFromUrl(
      (await uploadPicture(owner.agent, await png(300, 300, "#00ff00"))).body.user.profilePicture,
    );
    expect(second).not.toBe(first);
    expect(existsSync(storedPath(first))).toBe(false);
    expect(await StoredFile.query().findOne({ storedName: first })).toBeUndefined();
    expect(existsSync(storedPath(second))).toBe(true);
    expect((await owner.agent.get(`/api/download/${first}`)).status).toBe(404);
    const rows = await StoredFile.query().where("uploadedBy", owner.id);
    expect(rows.map((row) => row.storedName)).toEqual([second]);
  });

  it("leaves one picture, one row and one file when uploads race", async () => {
    const owner = await signUpOwner(server);
    const images = await Promise.all(
      ["#110000", "#001100", "#000011"].map((colour) => png(200, 200, colour)),
    );
    const responses = await Promise.all(images.map((image) => uploadPicture(owner.agent, image)));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    const names = responses.map((response) => nameFromUrl(response.body.user.profilePicture));
    const current = (await User.query().findById(owner.id))!.profilePicture!;
    expect(names).toContain(current);
    const rows = await StoredFile.query().where("uploadedBy", owner.id);
    expect(rows.map((row) => row.storedName)).toEqual([current]);
    for (const name of names) expect(existsSync(storedPath(name)), name).toBe(name === current);
  });

  it("strips EXIF and other metadata, and applies the EXIF orientation", async () => {
    const owner = await signUpOwner(server);
    const jpeg = await sharp({
      create: { width: 400, height: 300, channels: 3, background: "#336699" },
    })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: "secret", Artist: "Someone" } } })
      .toBuffer();
    const input = await sharp(jpeg).metadata();
    expect(input.exif?.toString("latin1")).toContain("secret");

    const response = await uploadPicture(owner.agent, jpeg, "camera.jpg", "image/jpeg");
    expect(response.status).toBe(200);
    const stored = storedPath(nameFromUrl(response.body.user.profilePicture));
    const output = await sharp(stored).metadata();
    expect(output.exif).toBeUndefined();
    expect(output.xmp).toBeUndefined();
    expect(output.icc).toBeUndefined();
    expect(output.orientation).toBeUndefined();
    expect(readFileSync(stored).includes(Buffer.from("secret"))).toBe(false);
  });

  it("answers 401 to anonymous callers and reads nothing", async () => {
    const before = storedFiles();
    const response = await uploadPicture(server.agent(), await png(10, 10));
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: expect.any(String) });
    expect(storedFiles()).toEqual(before);
  });

  it("answers 403 to a client user", async () => {
    const owner = await signUpOwner(server);
    const client = await signedInClientOf(owner.id);
    const before = storedFiles();
    const response = await postForm(
      server.agent(),
      "/api/user/profile-picture",
      form({ field: "profilePicture", data: await png(10, 10) }),
      { cookie: client.cookie },
    );
    expect(response.status).toBe(403);
    expect(response.body.message).toEqual(expect.any(String));
    expect(storedFiles()).toEqual(before);
    expect((await User.query().findById(client.user.id))?.profilePicture).toBeNull();
  });

  it("refuses a cross-site multipart post", async () => {
    const owner = await signUpOwner(server);
    const response = await postForm(
      owner.agent,
      "/api/user/profile-picture",
      form({ field: "profilePicture", data: await png(10, 10) }),
      { origin: "https://evil.example" },
    );
    expect(response.status).toBe(403);
  });

  describe("size limit", () => {
    let owner: Awaited<ReturnType<typeof signUpOwner>>;
    beforeAll(async () => {
      owner = await signUpOwner(server);
    });

    it("accepts an image of exactly 5MB", async () => {
      const response = await uploadPicture(owner.agent, await pngOfSize(IMAGE_UPLOAD_MAX_BYTES));
      expect(response.status).toBe(200);
    });

    it("answers 413 to 5MB and one byte, with nothing stored and the old picture kept", async () => {
      const before = await snapshot(owner.id);
      expect(before.profilePicture).toEqual(expect.any(String));
      const response = await uploadPicture(
        owner.agent,
        await pngOfSize(IMAGE_UPLOAD_MAX_BYTES + 1),
      );
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ message: "Please select an image smaller than 5MB" });
      expect(await snapshot(owner.id)).toEqual(before);
    });

    it("answers 413 while the upload is still streaming (chunked, no Content-Length)", async () => {
      const before = await snapshot(owner.id);
      const cookie = owner.agent.cookieHeader;
      const totalBytes = 200 * 1024 * 1024;
      const result = await rawUpload(cookie, { totalBytes, head: await png(8, 8) });
      expect(result.status).toBe(413);
      expect(JSON.parse(result.body)).toEqual({
        message: "Please select an image smaller than 5MB",
      });
      // The answer came long before the client was done sending.
      expect(result.sentBytes).toBeLessThan(totalBytes / 4);
      expect(await snapshot(owner.id)).toEqual(before);
    });

    it("answers 413 at once when the declared Content-Length is too large", async () => {
      const result = await rawUpload(owner.agent.cookieHeader, {
        totalBytes: 0,
        contentLength: 50 * 1024 * 1024,
        head: await png(8, 8),
      });
      expect(result.status).toBe(413);
      expect(result.sentBytes).toBe(0);
      expect(JSON.parse(result.body).message).toBe("Please select an image smaller than 5MB");
    });
  });

  describe("type by content", () => {
    let owner: Awaited<ReturnType<typeof signUpOwner>>;
    beforeAll(async () => {
      owner = await signUpOwner(server);
      await uploadPicture(owner.agent, await png(50, 50));
    });

    it.each([
      ["a PDF renamed .png", PDF, "document.png", "image/png"],
      ["an HTML page named .png", HTML, "page.png", "image/png"],
      ["an SVG image", SVG, "vector.svg", "image/svg+xml"],
      ["an SVG named .png", SVG, "vector.png", "image/png"],
      ["an empty file", Buffer.alloc(0), "empty.png", "image/png"],
    ])("refuses %s with 400", async (_label, data, filename, type) => {
      const before = await snapshot(owner.id);
      const response = await uploadPicture(owner.agent, data, filename, type);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: "Please select an image file" });
      expect(await snapshot(owner.id)).toEqual(before);
    });

    it("refuses a PNG header followed by anything else", async () => {
      const before = await snapshot(owner.id);
      const real = await png(100, 100);
      const fake = Buffer.concat([
        real.subarray(0, 33),
        Buffer.from("<script>alert(1)</script>".repeat(40)),
      ]);
      const response = await uploadPicture(owner.agent, fake);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: "Please select an image file" });
      expect(await snapshot(owner.id)).toEqual(before);
    });

    it("refuses an image over 40 megapixels with 400", async () => {
      const before = await snapshot(owner.id);
      const huge = await sharp({
        create: { width: 7000, height: 6000, channels: 3, background: "#ffffff" },
      })
        .png({ compressionLevel: 9 })
        .toBuffer();
      expect(huge.length).toBeLessThan(IMAGE_UPLOAD_MAX_BYTES);
      const response = await uploadPicture(owner.agent, huge);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/megapixels/);
      expect(await snapshot(owner.id)).toEqual(before);
    });
  });

  describe("form shape", () => {
    let owner: Awaited<ReturnType<typeof signUpOwner>>;
    beforeAll(async () => {
      owner = await signUpOwner(server);
      await uploadPicture(owner.agent, await png(50, 50));
    });

    const refused = async (body: FormData | string, headers?: Record<string, string>) => {
      const before = await snapshot(owner.id);
      const response = await postForm(owner.agent, "/api/user/profile-picture", body, headers);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: expect.any(String) });
      expect(await snapshot(owner.id)).toEqual(before);
      return response.body.message as string;
    };

    it("refuses a form without the profilePicture field", async () => {
      expect(await refused(form())).toBe("Please select an image file");
      expect(await refused(form({ field: "file", data: await png(10, 10) }))).toMatch(
        /profilePicture/,
      );
      expect(await refused(form({ field: "profilePicture", value: "not a file" }))).toBe(
        "Please select an image file",
      );
    });

    it("refuses two files", async () => {
      const image = await png(10, 10);
      const message = await refused(
        form(
          { field: "profilePicture", data: image },
          { field: "profilePicture", data: image, filename: "two.png" },
        ),
      );
      expect(message).toBe("Please select a single image");
      expect(
        await refused(
          form({ field: "profilePicture", data: image }, { field: "other", data: image }),
        ),
      ).toMatch(/one|single/i);
    });

    it("refuses unexpected text fields, before or after the file", async () => {
      const image = await png(10, 10);
      expect(
        await refused(
          form({ field: "profilePicture", data: image }, { field: "userId", value: "x" }),
        ),
      ).toMatch(/Unexpected field "userId"/);
      expect(
        await refused(
          form({ field: "role", value: "owner" }, { field: "profilePicture", data: image }),
        ),
      ).toMatch(/Unexpected field "role"/);
    });

    it("refuses a body that is not multipart", async () => {
      const json = await owner.agent.post("/api/user/profile-picture", {
        profilePicture: "data:image/png;base64,AAAA",
      });
      expect(json.status).toBe(400);
      expect(
        await refused((await png(10, 10)).toString("latin1"), { "content-type": "image/png" }),
      ).toMatch(/multipart/);
      expect(await refused("", { "content-type": "multipart/form-data" })).toMatch(/multipart/i);
    });

    it("refuses a truncated multipart body", async () => {
      const boundary = "----truncated";
      const body = `--${boundary}\r\nContent-Disposition: form-data; name="profilePicture"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${(await png(10, 10)).toString("latin1")}`;
      expect(
        await refused(body, { "content-type": `multipart/form-data; boundary=${boundary}` }),
      ).toEqual(expect.any(String));
    });
  });

  it("keeps the original name for display only: cleaned and shortened", async () => {
    const owner = await signUpOwner(server);
    const long = `${"a".repeat(300)}.png`;
    const tricky = "invoice\u202Egnp.exe";
    for (const [filename, expected] of [
      [long, `${"a".repeat(196)}.png`],
      [tricky, "invoicegnp.exe"],
      ["../../etc/passwd.png", "passwd.png"],
      ["résumé photo.PNG", "résumé photo.PNG"],
    ] as const) {
      const response = await uploadPicture(owner.agent, await png(20, 20), filename);
      expect(response.status, filename).toBe(200);
      const name = nameFromUrl(response.body.user.profilePicture);
      expect(name).toMatch(/^[0-9a-f]{32}\.webp$/);
      expect((await StoredFile.query().findOne({ storedName: name }))?.originalName).toBe(expected);
    }
  });
});

describe("POST /api/user/company-logo", () => {
  it("is part of the Agency plan: 403 on free and pro, nothing stored", async () => {
    const owner = await signUpOwner(server);
    const logo = await png(400, 100);
    const before = await snapshot(owner.id);
    const free = await uploadLogo(owner.agent, logo);
    expect(free.status).toBe(403);
    expect(free.body).toEqual({ message: expect.any(String) });
    await User.query().patch({ accountTier: "pro" }).where("id", owner.id);
    expect((await uploadLogo(owner.agent, logo)).status).toBe(403);
    expect(await snapshot(owner.id)).toEqual(before);
  });

  it("stores a PNG that fits 800x400, keeps transparency, and is upright", async () => {
    const owner = await signUpOwner(server);
    await User.query().patch({ accountTier: "agency" }).where("id", owner.id);

    const wide = await sharp({
      create: { width: 1600, height: 400, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const response = await uploadLogo(owner.agent, wide, "Acme logo.png");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      success: true,
      message: "Company logo updated successfully",
    });
    const url: string = response.body.user.companyLogo;
    expect(url).toMatch(/^\/api\/download\/[0-9a-f]{32}\.png$/);
    expect((await owner.agent.get("/api/user")).body.companyLogo).toBe(url);
    const stored = await sharp(storedPath(nameFromUrl(url))).metadata();
    expect(stored).toMatchObject({ format: "png", width: 800, height: 200, hasAlpha: true });

    // A small logo is not enlarged; an EXIF-rotated one comes out upright.
    const rotated = await sharp({
      create: { width: 40, height: 20, channels: 3, background: "#ff0000" },
    })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const second = await uploadLogo(owner.agent, rotated, "logo.jpg");
    expect(second.status).toBe(200);
    const upright = await sharp(storedPath(nameFromUrl(second.body.user.companyLogo))).metadata();
    expect(upright).toMatchObject({ format: "png", width: 20, height: 40 });
    expect(existsSync(storedPath(nameFromUrl(url)))).toBe(false);
  });

  it("refuses the profilePicture field name and non-images", async () => {
    const owner = await signUpOwner(server);
    await User.query().patch({ accountTier: "agency" }).where("id", owner.id);
    const wrongField = await postForm(
      owner.agent,
      "/api/user/company-logo",
      form({ field: "profilePicture", data: await png(10, 10) }),
    );
    expect(wrongField.status).toBe(400);
    const svg = await uploadLogo(owner.agent, SVG, "logo.svg");
    expect(svg.status).toBe(400);
    expect(svg.body).toEqual({ message: "Please select an image file" });
    expect((await User.query().findById(owner.id))?.companyLogo).toBeNull();
  });
});

describe("cleanFileName", () => {
  it("drops paths, control and direction characters, and keeps the extension when shortening", () => {
    expect(cleanFileName("C:\\Users\\me\\photo.png")).toBe("photo.png");
    expect(cleanFileName("in\u0000vo\u0007ice\u001b[31m\u202Egnp.exe")).toBe("invoice[31mgnp.exe");
    expect(cleanFileName("a\r\nb\tc.png")).toBe("abc.png");
    expect(cleanFileName("  spaced   out  .png ")).toBe("spaced out .png");
    expect(cleanFileName("\u0000\u0001", "image")).toBe("image");
    expect(cleanFileName("..", "image")).toBe("image");
    expect(cleanFileName(`${"é".repeat(250)}.jpeg`)).toBe(`${"é".repeat(195)}.jpeg`);
    expect(cleanFileName(`${"x".repeat(250)}`)).toBe("x".repeat(200));
  });
});
