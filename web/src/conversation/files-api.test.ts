import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RETRY_DELAYS_MS } from "../api/idempotent-post";
import { type UploadTransfer, uploadFile, uploadVersion } from "./files-api";

interface Sent {
  url: string;
  key: string | null;
  form: FormData;
}

/** A fetch that records each upload and answers with `answers` in turn (a thrown error: no answer). */
function fakeServer(answers: (Response | Error)[]) {
  const sent: Sent[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    sent.push({ url, key: headers.get("Idempotency-Key"), form: init.body as FormData });
    const answer = answers.shift() ?? new TypeError("no more answers");
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return { fetch, sent };
}
const stored = (id: string) =>
  new Response(JSON.stringify({ id, fileName: "brief.pdf" }), {
    status: 201,
    headers: { "content-type": "application/json" },
  });
const offline = () => new TypeError("Failed to fetch");
const pdf = (name = "brief.pdf", lastModified = 1) =>
  new File(["%PDF-1.4"], name, { type: "application/pdf", lastModified });

/** Runs `upload` through every retry wait; resolves with its answer or its error. */
async function settled<T>(upload: Promise<T>): Promise<T | Error> {
  const outcome = upload.catch((error: Error) => error);
  for (const delay of RETRY_DELAYS_MS) await vi.advanceTimersByTimeAsync(delay);
  return outcome;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("uploads", () => {
  it("sends the file as multipart, with Requires feedback only when asked", async () => {
    const server = fakeServer([stored("m1"), stored("m2")]);
    vi.stubGlobal("fetch", server.fetch);
    expect(await uploadFile("c1", pdf("a.pdf"), true)).toEqual({ id: "m1", fileName: "brief.pdf" });
    await uploadFile("c1", pdf("b.pdf"), undefined);
    expect(server.sent.map((s) => s.url)).toEqual([
      "/api/clients/c1/upload",
      "/api/clients/c1/upload",
    ]);
    expect(server.sent[0]!.form.get("requiresFeedback")).toBe("true");
    expect((server.sent[0]!.form.get("file") as File).name).toBe("a.pdf");
    expect(server.sent[1]!.form.has("requiresFeedback")).toBe(false);
  });

  it("says who must approve only with a file for approval, and on a new version", async () => {
    const server = fakeServer([stored("m1"), stored("m2"), stored("m3")]);
    vi.stubGlobal("fetch", server.fetch);
    await uploadFile("c1", pdf("a.pdf"), true, undefined, { approvalRule: "everyone" });
    await uploadFile("c1", pdf("b.pdf"), false, undefined, { approvalRule: "everyone" });
    await uploadVersion("m1", pdf("a-v2.pdf"), undefined, { approvalRule: "any" });
    expect(server.sent.map((s) => s.form.get("approvalRule"))).toEqual(["everyone", null, "any"]);
    expect(server.sent[2]!.url).toBe("/api/messages/m1/versions");
  });

  it("retries a lost upload with the same key, and gives the last error once it gives up", async () => {
    const server = fakeServer([offline(), new Response("", { status: 503 }), stored("m1")]);
    vi.stubGlobal("fetch", server.fetch);
    expect(await settled(uploadFile("c1", pdf(), false))).toMatchObject({ id: "m1" });
    expect(server.sent).toHaveLength(3);
    expect(new Set(server.sent.map((s) => s.key)).size).toBe(1);

    const down = fakeServer(Array.from({ length: 4 }, offline));
    vi.stubGlobal("fetch", down.fetch);
    const error = await settled(uploadFile("c1", pdf("down.pdf"), false));
    expect(error).toBeInstanceOf(TypeError);
    expect(down.sent).toHaveLength(RETRY_DELAYS_MS.length + 1);
  });

  it("sends the same file to the same place again with the key of the upload that may have arrived", async () => {
    const down = fakeServer(Array.from({ length: 4 }, offline));
    vi.stubGlobal("fetch", down.fetch);
    const file = pdf("again.pdf", 42);
    await settled(uploadFile("c2", file, false));
    const lostKey = down.sent[0]!.key;

    const back = fakeServer([stored("m1"), stored("m2"), stored("m3"), stored("m4")]);
    vi.stubGlobal("fetch", back.fetch);
    // Another file, or the same file elsewhere, is another upload.
    await uploadFile("c2", pdf("other.pdf", 42), false);
    await uploadVersion("m0", file);
    await uploadFile("c2", file, false);
    // Once it arrived the key is forgotten: uploading it again is a new upload.
    await uploadFile("c2", file, false);
    const keys = back.sent.map((s) => s.key);
    expect(keys[2]).toBe(lostKey);
    expect(new Set([lostKey, keys[0], keys[1], keys[3]]).size).toBe(4);
    expect(back.sent[1]!.url).toBe("/api/messages/m0/versions");
  });

  it("does not retry an answer retrying cannot change", async () => {
    const refused = new Response(JSON.stringify({ message: "File type not supported" }), {
      status: 400,
      headers: { "content-type": "application/json" },
    });
    const server = fakeServer([refused]);
    vi.stubGlobal("fetch", server.fetch);
    const error = await settled(uploadFile("c1", pdf("x.pdf"), false));
    expect(error).toMatchObject({ status: 400, message: "File type not supported" });
    expect(server.sent).toHaveLength(1);
  });

  it("a new choice of Requires feedback is a new upload (its own key)", async () => {
    const down = fakeServer(Array.from({ length: 4 }, offline));
    vi.stubGlobal("fetch", down.fetch);
    const file = pdf("feedback.pdf", 7);
    await settled(uploadFile("c3", file, false));
    const back = fakeServer([stored("m1")]);
    vi.stubGlobal("fetch", back.fetch);
    await uploadFile("c3", file, true);
    expect(back.sent[0]!.key).not.toBe(down.sent[0]!.key);
    expect(back.sent[0]!.form.get("requiresFeedback")).toBe("true");
  });
});

describe("uploads with progress and Cancel (the dialog's transfer)", () => {
  /** A transfer whose attempts all go unanswered, recording progress and keys. */
  function unanswered() {
    const progress: [number, number][] = [];
    const keys: string[] = [];
    const controller = new AbortController();
    const transfer: UploadTransfer = {
      signal: controller.signal,
      onProgress: (sent, total) => progress.push([sent, total]),
      upload: async (file, upload) => {
        keys.push(upload.idempotencyKey);
        upload.onProgress?.(file.size, file.size);
        throw new TypeError("Failed to upload");
      },
    };
    return { transfer, progress, keys, cancel: () => controller.abort() };
  }

  it("Cancel during the wait before a retry stops it at once: no further attempt", async () => {
    const { transfer, keys, cancel } = unanswered();
    const outcome = uploadFile("c4", pdf("wait.pdf"), false, transfer).catch((error) => error);
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0] + 10);
    expect(keys).toHaveLength(2);
    cancel();
    const error = await outcome;
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe("AbortError");
    await vi.advanceTimersByTimeAsync(10_000);
    expect(keys).toHaveLength(2);
  });

  it("every attempt and every wait starts the bar from nothing sent", async () => {
    const { transfer, progress } = unanswered();
    const file = pdf("bar.pdf");
    await settled(uploadFile("c5", file, false, transfer));
    const size = file.size;
    // Per attempt: reset, all sent, reset for the wait (or the end).
    expect(progress).toEqual(
      Array.from({ length: RETRY_DELAYS_MS.length + 1 }, () => [
        [0, size],
        [size, size],
        [0, size],
      ]).flat(),
    );
  });
});
