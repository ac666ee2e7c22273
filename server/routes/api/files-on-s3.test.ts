import { CreateMultipartUploadCommand } from "@aws-sdk/client-s3";
import { randomBytes } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAT_UPLOAD_MAX_BYTES } from "../../../shared/files";
import type { TestClock } from "../../../tests/support/clock";
import { addJoinedClient, setTier } from "../../../tests/support/conversations";
import { testDatabase } from "../../../tests/support/database";
import { signUpOwner } from "../../../tests/support/factories";
import { type S3rverInstance, startS3rver } from "../../../tests/support/s3rver";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import {
  pdfOfSize,
  smallPng,
  storedKeys,
  uploadFile,
  uploadImage,
} from "../../../tests/support/storage-files";
import type { Database } from "../../db/connection";
import { StoredFile, User } from "../../models";
import { createS3Client } from "../../storage/s3-client";
import { S3Storage } from "../../storage/s3-storage";

// The product with S3_* pointing at a real s3rver: every stored byte is in the bucket, none
// under DATA_DIR/files.

let s3: S3rverInstance;
let db: Database;
let server: TestServer;

beforeAll(async () => {
  s3 = await startS3rver();
  // The storage sweep takes an advisory lock of its database: a database of its own.
  db = await testDatabase({ isolated: true });
  server = await startTestServer({ db, env: s3.env });
});
afterAll(async () => {
  await server?.close();
  await db?.destroy();
  await s3?.stop();
});

async function download(cookie: string, url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${url}`, { headers: { cookie, ...headers } });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** A multipart upload sent chunked (no Content-Length), so the size cut happens while it streams. */
async function chunkedUpload(cookie: string, clientId: string, data: Buffer, filename: string) {
  const boundary = `----s3test${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const pieces: Buffer[] = [head];
  for (let at = 0; at < data.length; at += 256 * 1024)
    pieces.push(data.subarray(at, at + 256 * 1024));
  pieces.push(tail);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = pieces.shift();
      if (next) controller.enqueue(new Uint8Array(next));
      else controller.close();
    },
  });
  const response = await fetch(`${server.url}/api/clients/${clientId}/upload`, {
    method: "POST",
    headers: {
      cookie,
      origin: server.url,
      "content-type": `multipart/form-data; boundary=${boundary}`,
    },
    body,
    duplex: "half",
  } as RequestInit);
  return { status: response.status, body: await response.json() };
}

const PDF_HEAD = pdfOfSize(200);
const pdfOfExactly = (size: number) =>
  Buffer.concat([PDF_HEAD, Buffer.alloc(size - PDF_HEAD.length, 0x20)]);

describe("files on S3", () => {
  it("keeps an upload in the bucket and serves it with Range, ETag and the safe headers", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    const data = pdfOfSize(5000);
    const uploaded = await uploadFile(owner.agent, client.id, data);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const [file] = await StoredFile.query().where("clientId", client.id);
    expect(await s3.keys()).toContain(file!.storedName);
    expect(storedKeys(server.dataDir)).toEqual([]);

    const cookie = owner.agent.cookieHeader;
    const whole = await download(cookie, uploaded.body.fileUrl);
    expect(whole.status).toBe(200);
    expect(whole.bytes.equals(data)).toBe(true);
    expect(whole.headers.get("etag")).toBe(`"${file!.storedName}"`);
    expect(whole.headers.get("x-content-type-options")).toBe("nosniff");
    expect(whole.headers.get("content-security-policy")).toBe("sandbox");
    expect(whole.headers.get("content-type")).toBe("application/pdf");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");

    const part = await download(cookie, uploaded.body.fileUrl, { Range: "bytes=100-199" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${data.length}`);
    expect(part.bytes).toEqual(data.subarray(100, 200));

    const cached = await download(cookie, uploaded.body.fileUrl, {
      "If-None-Match": `"${file!.storedName}"`,
    });
    expect(cached.status).toBe(304);
    expect(cached.bytes.length).toBe(0);

    const clientCopy = await download(client.agent.cookieHeader, uploaded.body.fileUrl);
    expect(clientCopy.bytes.equals(data)).toBe(true);
    const stranger = await signUpOwner(server, "Oscar Other");
    expect((await download(stranger.agent.cookieHeader, uploaded.body.fileUrl)).status).toBe(404);
  });

  it("keeps an image and its preview in the bucket", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    const uploaded = await uploadFile(owner.agent, client.id, await smallPng(), "photo.png");
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const [file] = await StoredFile.query().where("clientId", client.id);
    expect(await s3.keys()).toEqual(
      expect.arrayContaining([file!.storedName, `${file!.storedName}.preview`]),
    );
    const preview = await download(owner.agent.cookieHeader, `${uploaded.body.fileUrl}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get("content-type")).toBe("image/webp");
  });

  it("leaves nothing in the bucket of a refused upload: too large, cut while streaming, or not what it claims", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    const cookie = owner.agent.cookieHeader;
    const before = await s3.keys();

    const declared = await uploadFile(
      owner.agent,
      client.id,
      pdfOfExactly(CHAT_UPLOAD_MAX_BYTES + 1),
    );
    expect(declared.status).toBe(413);
    // Past the first 5 MB part, so a multipart upload was under way when the cut came.
    const streamed = await chunkedUpload(
      cookie,
      client.id,
      pdfOfExactly(CHAT_UPLOAD_MAX_BYTES + 1),
      "big.pdf",
    );
    expect(streamed).toEqual({
      status: 413,
      body: { message: "File size must be less than 10 MB" },
    });
    const disguised = await uploadFile(owner.agent, client.id, await smallPng(), "invoice.pdf");
    expect(disguised.status).toBe(400);

    expect(await s3.keys()).toEqual(before);
    expect(await StoredFile.query().where("clientId", client.id)).toEqual([]);

    const exact = await chunkedUpload(
      cookie,
      client.id,
      pdfOfExactly(CHAT_UPLOAD_MAX_BYTES),
      "ten.pdf",
    );
    expect(exact.status, JSON.stringify(exact.body)).toBe(201);
    expect(exact.body.fileSize).toBe(CHAT_UPLOAD_MAX_BYTES);
    const [file] = await StoredFile.query().where("clientId", client.id);
    expect(await s3.keys()).toEqual([...before, file!.storedName].sort());
  }, 30_000);

  it("puts profile pictures and logos in the bucket, and deleting the client removes its files", async () => {
    const owner = await signUpOwner(server);
    await setTier(owner.id, "agency");
    const png = await smallPng();
    expect(
      (await uploadImage(owner.agent, "/api/user/profile-picture", "profilePicture", png)).status,
    ).toBe(200);
    expect(
      (await uploadImage(owner.agent, "/api/user/company-logo", "companyLogo", png)).status,
    ).toBe(200);
    const user = await User.query().findById(owner.id);
    expect(await s3.keys()).toEqual(
      expect.arrayContaining([user!.profilePicture, user!.companyLogo]),
    );

    const client = await addJoinedClient(server, owner);
    expect((await uploadFile(owner.agent, client.id, pdfOfSize(300))).status).toBe(201);
    expect((await uploadFile(client.agent, client.id, png, "shot.png")).status).toBe(201);
    const names = (await StoredFile.query().where("clientId", client.id)).map(
      (row) => row.storedName,
    );
    expect(names).toHaveLength(2);
    for (const name of names) expect(await s3.keys()).toContain(name);

    expect((await owner.agent.delete(`/api/clients/${client.id}`)).status).toBe(200);
    const left = await s3.keys();
    for (const name of names) {
      expect(left).not.toContain(name);
      expect(left).not.toContain(`${name}.preview`);
    }
    expect(left).toEqual(expect.arrayContaining([user!.profilePicture, user!.companyLogo]));
    expect(storedKeys(server.dataDir)).toEqual([]);
  });

  it("keeps nothing when the client goes away mid-upload, past the first 5 MB part", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    const before = await s3.keys();
    const boundary = "----s3testgoingaway";
    const request = http.request(`${server.url}/api/clients/${client.id}/upload`, {
      method: "POST",
      headers: {
        cookie: owner.agent.cookieHeader,
        origin: server.url,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(CHAT_UPLOAD_MAX_BYTES),
      },
    });
    request.on("error", () => {});
    request.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    request.write(pdfOfExactly(6 * 1024 * 1024));
    // The first part is in the bucket as an unfinished multipart upload: cut now.
    await expect
      .poll(() => s3.keys(), { timeout: 20_000 })
      .toEqual(expect.arrayContaining([expect.stringMatching(/\.pdf\.partial$/)]));
    request.destroy();
    await expect.poll(() => s3.keys(), { timeout: 20_000 }).toEqual(before);
    expect(await StoredFile.query().where("clientId", client.id)).toEqual([]);
  }, 30_000);

  it("deleting an account removes every byte of it from the bucket", async () => {
    const owner = await signUpOwner(server);
    await setTier(owner.id, "agency");
    const png = await smallPng();
    expect(
      (await uploadImage(owner.agent, "/api/user/profile-picture", "profilePicture", png)).status,
    ).toBe(200);
    expect(
      (await uploadImage(owner.agent, "/api/user/company-logo", "companyLogo", png)).status,
    ).toBe(200);
    const client = await addJoinedClient(server, owner);
    expect((await uploadFile(owner.agent, client.id, pdfOfSize(300))).status).toBe(201);
    expect((await uploadFile(client.agent, client.id, png, "shot.png")).status).toBe(201);
    const user = await User.query().findById(owner.id);
    const files = (await StoredFile.query().where("clientId", client.id)).map(
      (row) => row.storedName,
    );
    const keys = [
      user!.profilePicture!,
      user!.companyLogo!,
      ...files,
      ...files.map((name) => `${name}.preview`),
    ];
    const stored = await s3.keys();
    expect(keys.filter((key) => stored.includes(key))).toHaveLength(5);

    const deleted = await owner.agent.post("/api/user/delete", { password: owner.password });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const left = await s3.keys();
    expect(keys.filter((key) => left.includes(key))).toEqual([]);
  });

  it("sweeps orphans and unfinished multipart uploads from the bucket once they are an hour old", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    expect((await uploadFile(owner.agent, client.id, pdfOfSize(400))).status).toBe(201);
    const [kept] = await StoredFile.query().where("clientId", client.id);
    const orphan = `${randomBytes(16).toString("hex")}.pdf`;
    await server.services.storage.put(orphan, Buffer.from("no row names me"));
    const unfinished = `${randomBytes(16).toString("hex")}.pdf`;
    const { config } = server.services;
    await createS3Client(config.s3!).send(
      new CreateMultipartUploadCommand({ Bucket: config.s3!.bucket, Key: unfinished }),
    );
    expect(await s3.keys()).toEqual(expect.arrayContaining([orphan, `${unfinished}.partial`]));

    (server.clock as TestClock).advanceMinutes(61);
    await server.jobs.runOnce("storage-sweep");

    const left = await s3.keys();
    expect(left).toContain(kept!.storedName);
    expect(left).not.toContain(orphan);
    expect(left).not.toContain(`${unfinished}.partial`);
  });

  it("answers the readiness probe, and names a missing bucket", async () => {
    await expect(server.services.storage.probe()).resolves.toBeUndefined();
    const missing = new S3Storage(
      createS3Client({ ...server.services.config.s3!, bucket: "gone" }),
      "gone",
    );
    await expect(missing.probe()).rejects.toThrow("S3 bucket gone is not reachable: answered 404");
  });
});
