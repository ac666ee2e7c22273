import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient, type JoinedClient, setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { hugePng, photoJpeg } from "../../../tests/support/images";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import { storedKeys } from "../../../tests/support/storage-files";
import { Message, StoredFile } from "../../models";

let server: TestServer;
let A: SignedInOwner;
let B: SignedInOwner;
let A1: JoinedClient;
let A2: JoinedClient;
let B1: JoinedClient;
/** 20000 x 20000 pixels in a few dozen KB. */
let bomb: Buffer;

beforeAll(async () => {
  server = await startTestServer();
  A = await signUpOwner(server, "Alice Owner");
  B = await signUpOwner(server, "Bob Owner");
  await setTier(A.id, "agency");
  A1 = await addJoinedClient(server, A, { name: "Client One Of Alice" });
  A2 = await addJoinedClient(server, A, { name: "Other Client Of Alice" });
  B1 = await addJoinedClient(server, B, { name: "Client Of Bob" });
  bomb = hugePng(20_000, 20_000);
});
afterAll(() => server?.close());

// ---- helpers ----

function fileForm(
  field: string,
  data: Buffer,
  filename: string,
  extra: Record<string, string> = {},
) {
  const body = new FormData();
  for (const [name, value] of Object.entries(extra)) body.append(name, value);
  body.append(field, new Blob([new Uint8Array(data)]), filename);
  return body;
}

const uploadFile = (
  agent: TestAgent,
  clientId: string,
  data: Buffer,
  filename: string,
  extra?: Record<string, string>,
) =>
  agent.request("POST", `/api/clients/${clientId}/upload`, {
    body: fileForm("file", data, filename, extra),
  });

/** GET with the agent's cookies, keeping the body as bytes. */
async function getBytes(agent: TestAgent | null, urlPath: string) {
  const response = await fetch(`${server.url}${urlPath}`, {
    headers: agent?.cookieHeader ? { cookie: agent.cookieHeader } : {},
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes };
}

/** Every key under the server's storage directory, partial writes included. */
const storedFiles = () => storedKeys(server.dataDir);

/** Storage, files rows and messages, to compare before and after a refusal. */
/**
 * This file's stored files, their rows and its conversations' messages. Only this file's
 * people and conversations: on PostgreSQL other test files write to the same database at the
 * same time.
 */
async function snapshot() {
  const people = [A.id, B.id, A1.userId, A2.userId, B1.userId];
  const conversations = [A1.id, A2.id, B1.id];
  return {
    files: storedFiles(),
    rows: (
      await StoredFile.query()
        .select("storedName")
        .whereIn("uploadedBy", people)
        .orderBy("storedName")
    ).map((row) => row.storedName),
    messages: (await Message.query()
      .whereIn("clientId", conversations)
      .count("* as n")
      .first()) as unknown,
  };
}

const storedNameOf = (fileUrl: string) => fileUrl.replace("/api/download/", "");
const storage = () => server.services.storage;

async function uploadPhoto(width = 3000, height = 2000) {
  const photo = await photoJpeg(width, height);
  const response = await uploadFile(A1.agent, A1.id, photo, "Holiday photo.jpg");
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  const storedName = storedNameOf(response.body.fileUrl);
  return { photo, response, storedName, previewUrl: response.body.previewUrl as string };
}

// ---- tests ----

describe("an image of 20000 x 20000 pixels (a few KB on disk) is refused everywhere", () => {
  it("is tiny on disk, yet a valid PNG of 400 megapixels", async () => {
    expect(bomb.length).toBeLessThan(400 * 1024);
    const metadata = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect(metadata).toMatchObject({ format: "png", width: 20_000, height: 20_000 });
  });

  it("as a chat upload: 400 with a clear message, nothing stored, no row, no message", async () => {
    const before = await snapshot();
    for (const [agent, clientId] of [
      [A1.agent, A1.id],
      [A.agent, A1.id],
    ] as const) {
      const response = await uploadFile(agent, clientId, bomb, "poster.png");
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        message: "Images can have at most 40 megapixels; this one is 20000 × 20000 pixels",
      });
    }
    expect(await snapshot()).toEqual(before);
  });

  it("as a new version of a file marked Needs Work: 400, nothing stored", async () => {
    const first = await uploadFile(A.agent, A1.id, await photoJpeg(64, 48), "mockup.jpg", {
      requiresFeedback: "true",
    });
    expect(first.status).toBe(201);
    const decided = await A1.agent.patch(`/api/messages/${first.body.id}/feedback`, {
      feedbackStatus: "needs_work",
      feedbackComment: "Bigger, please",
    });
    expect(decided.status).toBe(200);

    const before = await snapshot();
    const refused = await A.agent.request("POST", `/api/messages/${first.body.id}/versions`, {
      body: fileForm("file", bomb, "mockup v2.png"),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/at most 40 megapixels/);
    expect(await snapshot()).toEqual(before);

    // A fitting image is still accepted as the new version, with its preview.
    const accepted = await A.agent.request("POST", `/api/messages/${first.body.id}/versions`, {
      body: fileForm("file", await photoJpeg(64, 48), "mockup v2.jpg"),
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ versionNumber: 2, previewUrl: expect.any(String) });
  });

  it("as a profile picture and as a company logo: 400, nothing stored", async () => {
    const before = await snapshot();
    const picture = await A.agent.request("POST", "/api/user/profile-picture", {
      body: fileForm("profilePicture", bomb, "me.png"),
    });
    const logo = await A.agent.request("POST", "/api/user/company-logo", {
      body: fileForm("companyLogo", bomb, "logo.png"),
    });
    for (const response of [picture, logo]) {
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: "Please select an image of at most 40 megapixels" });
    }
    expect(await snapshot()).toEqual(before);
    const me = await A.agent.get("/api/user");
    expect(me.body).toMatchObject({ profilePicture: null, companyLogo: null });
  });
});

describe("conversation images are shown from a server-made preview", () => {
  it("a photo gets a WebP preview of at most 1600 px, stored at upload next to the original", async () => {
    const { response, storedName, previewUrl } = await uploadPhoto(3000, 2000);
    expect(response.body).toMatchObject({
      fileUrl: `/api/download/${storedName}`,
      previewUrl: `/api/download/${storedName}/preview`,
    });
    // Made at upload, under the shared key `<storedName>.preview`.
    expect(await storage().stat(`${storedName}.preview`)).not.toBeNull();

    for (const agent of [A.agent, A1.agent]) {
      const preview = await getBytes(agent, previewUrl);
      expect(preview.status).toBe(200);
      expect(preview.headers.get("content-type")).toBe("image/webp");
      expect(preview.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
      expect(preview.headers.get("content-disposition")).toMatch(
        /^inline; filename="Holiday photo\.webp"/,
      );
      expect(preview.headers.get("x-content-type-options")).toBe("nosniff");
      const metadata = await sharp(preview.bytes).metadata();
      expect(metadata).toMatchObject({ format: "webp", width: 1600, height: 1067 });
    }
  });

  it("lists the preview with the message and in the attachments; not for other files", async () => {
    const { storedName } = await uploadPhoto(400, 300);
    const pdf = await uploadFile(A.agent, A1.id, Buffer.from("%PDF-1.4\n%%EOF\n"), "brief.pdf");
    expect(pdf.status).toBe(201);
    expect(pdf.body.previewUrl).toBeNull();
    const messages = await A.agent.get(`/api/clients/${A1.id}/messages`);
    const attachments = await A1.agent.get(`/api/clients/${A1.id}/attachments`);
    for (const list of [messages.body, attachments.body]) {
      const photo = list.find((m: { fileUrl: string | null }) => m.fileUrl?.includes(storedName));
      expect(photo.previewUrl).toBe(`/api/download/${storedName}/preview`);
      expect(list.find((m: { id: string }) => m.id === pdf.body.id).previewUrl).toBeNull();
    }
    const text = await A.agent.post(`/api/clients/${A1.id}/messages`, { content: "Hello" });
    expect(text.body.previewUrl ?? null).toBeNull();
    // A PDF has no preview to ask for.
    expect((await getBytes(A.agent, `${pdf.body.fileUrl}/preview`)).status).toBe(404);
  });

  it("a small image is not enlarged", async () => {
    const { previewUrl } = await uploadPhoto(120, 80);
    const preview = await getBytes(A.agent, previewUrl);
    expect(await sharp(preview.bytes).metadata()).toMatchObject({ width: 120, height: 80 });
  });

  it("is made once: later requests serve the stored preview", async () => {
    const { storedName, previewUrl } = await uploadPhoto(1800, 1200);
    const first = await getBytes(A.agent, previewUrl);
    // Replace what storage holds: a request that made the preview again would not answer this.
    const marker = await sharp({
      create: { width: 10, height: 10, channels: 3, background: "#ff0000" },
    })
      .webp()
      .toBuffer();
    expect(marker.equals(first.bytes)).toBe(false);
    await storage().put(`${storedName}.preview`, marker);
    for (const agent of [A.agent, A1.agent]) {
      const again = await getBytes(agent, previewUrl);
      expect(again.status).toBe(200);
      expect(again.bytes.equals(marker)).toBe(true);
    }
  });

  it("a file stored before previews existed gets one on first request, stored and reused", async () => {
    const { storedName, previewUrl } = await uploadPhoto(2400, 3200);
    await storage().delete(`${storedName}.preview`);
    expect(await storage().stat(`${storedName}.preview`)).toBeNull();

    const made = await getBytes(A1.agent, previewUrl);
    expect(made.status).toBe(200);
    expect(await sharp(made.bytes).metadata()).toMatchObject({
      format: "webp",
      width: 1200,
      height: 1600,
    });
    const stored = await storage().stat(`${storedName}.preview`);
    expect(stored?.size).toBe(made.bytes.length);

    const marker = await sharp({
      create: { width: 12, height: 12, channels: 3, background: "#00ff00" },
    })
      .webp()
      .toBuffer();
    await storage().put(`${storedName}.preview`, marker);
    expect((await getBytes(A.agent, previewUrl)).bytes.equals(marker)).toBe(true);
  });

  it("an over-limit image kept before the limit existed gets no preview: 404 {message}, nothing stored", async () => {
    const { storedName, previewUrl } = await uploadPhoto(64, 64);
    // As if the bomb had been accepted by an older version of the server.
    await storage().delete(`${storedName}.preview`);
    await storage().put(storedName, bomb);
    const response = await getBytes(A.agent, previewUrl);
    expect(response.status).toBe(404);
    expect(JSON.parse(response.bytes.toString())).toEqual({ message: "This file has no preview" });
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await storage().stat(`${storedName}.preview`)).toBeNull();
  });

  it("is served only to the conversation's owner and client: 404 to everyone else", async () => {
    const { previewUrl, storedName } = await uploadPhoto(300, 200);
    for (const agent of [B.agent, B1.agent, A2.agent, null]) {
      const response = await getBytes(agent, previewUrl);
      expect(response.status).toBe(404);
      expect(JSON.parse(response.bytes.toString())).toEqual({ message: "Not found" });
    }
    // The storage key itself is no download address.
    expect((await getBytes(A.agent, `/api/download/${storedName}.preview`)).status).toBe(404);
  });

  it("the original is still the original bytes, as a download (attachment)", async () => {
    const { photo, response } = await uploadPhoto(2000, 1500);
    const original = await getBytes(A.agent, response.body.fileUrl);
    expect(original.status).toBe(200);
    expect(original.bytes.equals(photo)).toBe(true);
    expect(original.headers.get("content-type")).toBe("image/jpeg");
    expect(original.headers.get("content-disposition")).toMatch(
      /^attachment; filename="Holiday photo\.jpg"/,
    );
  });

  it("an upload refused after it was read leaves neither the original nor its preview", async () => {
    const before = await snapshot();
    // Only the owner may ask for approval: the client's request is read, then refused.
    const response = await uploadFile(A1.agent, A1.id, await photoJpeg(200, 100), "a.jpg", {
      requiresFeedback: "true",
    });
    expect(response.status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });
});
