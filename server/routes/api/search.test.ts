import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient, type JoinedClient, setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import { pdfOfSize, uploadFile } from "../../../tests/support/storage-files";
import type { SearchResponse, SearchResult } from "../../../shared/schemas/search";

let server: TestServer;
let A: SignedInOwner;
let B: SignedInOwner;
let A1: JoinedClient;
let A2: JoinedClient;
let B1: JoinedClient;
/** A word no other test file writes, so that PostgreSQL's shared database cannot interfere. */
const tag = `zq${randomUUID().slice(0, 6).replace(/-/g, "")}`;

async function say(agent: TestAgent, clientId: string, content: string): Promise<string> {
  const response = await agent.post(`/api/clients/${clientId}/messages`, { content });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id;
}

async function search(agent: TestAgent, params: Record<string, string>) {
  return agent.get<SearchResponse>(`/api/search?${new URLSearchParams(params)}`);
}

/** The texts (or file names) of the results, newest first. */
async function found(agent: TestAgent, q: string, params: Record<string, string> = {}) {
  const response = await search(agent, { q, ...params });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.results.map(snippetText);
}

const snippetText = (result: SearchResult) => result.snippet.map((part) => part.text).join("");
const marked = (result: SearchResult) =>
  result.snippet.filter((part) => part.match).map((part) => part.text);

let reviewId: string;
let replyId: string;
let fileId: string;

beforeAll(async () => {
  server = await startTestServer();
  A = await signUpOwner(server, "Alice Owner");
  B = await signUpOwner(server, "Bob Owner");
  await setTier(A.id, "pro");
  A1 = await addJoinedClient(server, A, { name: "Carla Client" });
  A2 = await addJoinedClient(server, A, { name: "Dan Client" });
  B1 = await addJoinedClient(server, B, { name: "Erin Client" });
  reviewId = await say(A.agent, A1.id, `Please review the quarterly invoice draft ${tag}`);
  replyId = await say(A1.agent, A1.id, `The invoice looks fine, thanks! ${tag}`);
  await say(A.agent, A2.id, `Kickoff meeting tomorrow at the café ${tag}`);
  const upload = await uploadFile(A.agent, A2.id, pdfOfSize(), "Invoice_2026-7.pdf");
  expect(upload.status).toBe(201);
  fileId = upload.body.id;
  await say(B.agent, B1.id, `Bob's own invoice, kickoff and café ${tag}`);
  await say(B1.agent, B1.id, `Erin writes about the quarterly invoice ${tag}`);
});
afterAll(() => server?.close());

describe("what matches", () => {
  it("finds every word, newest first, in text and file names, with who, where and when", async () => {
    const response = await search(A.agent, { q: "invoice" });
    expect(response.status).toBe(200);
    expect(response.body.nextCursor).toBeNull();
    const [file, reply, review] = response.body.results;
    expect(response.body.results.map((result) => result.messageId)).toEqual([
      fileId,
      replyId,
      reviewId,
    ]);
    expect(reply).toEqual({
      messageId: replyId,
      clientId: A1.id,
      clientName: "Carla Client",
      seq: expect.any(Number),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      senderRole: "client",
      senderName: "Carla Client",
      kind: "message",
      fileName: null,
      snippet: [
        { text: "The ", match: false },
        { text: "invoice", match: true },
        { text: ` looks fine, thanks! ${tag}`, match: false },
      ],
      authorName: "Carla Client",
      visibility: "client",
    });
    expect(review).toMatchObject({
      senderRole: "owner",
      senderName: "Alice Owner",
      kind: "message",
    });
    expect(file).toMatchObject({
      clientId: A2.id,
      clientName: "Dan Client",
      senderName: "Alice Owner",
      kind: "file",
      fileName: "Invoice_2026-7.pdf",
      snippet: [
        { text: "Invoice", match: true },
        { text: "_2026-7.pdf", match: false },
      ],
    });
    expect(file!.seq).toBeGreaterThan(reply!.seq);
    expect(reply!.seq).toBeGreaterThan(review!.seq);
  });

  it("matches the last word as a prefix and the others whole, ignoring case and accents' case", async () => {
    expect(await found(A.agent, "INVO")).toHaveLength(3);
    expect(await found(A.agent, "quart")).toEqual([
      `Please review the quarterly invoice draft ${tag}`,
    ]);
    expect(await found(A.agent, "quarterly invo")).toHaveLength(1);
    // Not a prefix unless it is the last word.
    expect(await found(A.agent, "quart invoice")).toEqual([]);
    // Every word must be there.
    expect(await found(A.agent, "invoice kickoff")).toEqual([]);
    expect(await found(A.agent, "CAFÉ")).toEqual([`Kickoff meeting tomorrow at the café ${tag}`]);
    expect(await found(A.agent, "tomorrow's kickoff")).toEqual([]);
  });

  it("finds file names by their parts, and phrases in order", async () => {
    expect(await found(A.agent, "2026")).toEqual(["Invoice_2026-7.pdf"]);
    expect(await found(A.agent, "invoice_2026-7.pdf")).toEqual(["Invoice_2026-7.pdf"]);
    expect(await found(A.agent, '"invoice looks"')).toEqual([
      `The invoice looks fine, thanks! ${tag}`,
    ]);
    expect(await found(A.agent, '"looks invoice"')).toEqual([]);
    // An unclosed phrase is being typed: its last word is a prefix.
    expect(await found(A.agent, '"the invoice lo')).toHaveLength(1);
  });

  it("reads operators and quotes as plain text, never as query syntax", async () => {
    for (const q of [
      "invoice & !",
      "invoice | kickoff",
      "!invoice",
      "invoice:*",
      "'invoice'",
      "(invoice",
      "invoice <-> draft",
      "\\invoice",
    ]) {
      const response = await search(A.agent, { q });
      expect(response.status, q).toBe(200);
    }
    expect(await found(A.agent, "invoice | kickoff")).toEqual([]);
    expect(await found(A.agent, "!quarterly")).toHaveLength(1);
    // Nothing searchable at all (punctuation only) finds nothing.
    expect(await found(A.agent, "&&& !!!")).toEqual([]);
  });

  it("shows the match in context, cut at words, with every matching word marked", async () => {
    const before = Array.from({ length: 30 }, (_, i) => `filler${i}`).join(" ");
    const after = Array.from({ length: 30 }, (_, i) => `trailer${i}`).join(" ");
    await say(A.agent, A1.id, `${before}\n\nthe ${tag}needle is\there ${after} ${tag}needle`);
    const [result] = (await search(A.agent, { q: `${tag}needle` })).body.results;
    const text = snippetText(result!);
    expect(text.startsWith("…filler")).toBe(true);
    expect(text.endsWith("…")).toBe(true);
    expect(text).toContain(`the ${tag}needle is here trailer0`);
    expect(text.length).toBeLessThanOrEqual(162);
    expect(marked(result!)).toEqual([`${tag}needle`]);
  });
});

describe("pages", () => {
  it("pages through older results with nextCursor, without repeats or gaps", async () => {
    const word = `${tag}page`;
    const ids: string[] = [];
    for (let i = 1; i <= 23; i += 1)
      ids.push(await say(A.agent, i % 2 ? A1.id : A2.id, `${word} number ${i}`));
    const seen: string[] = [];
    let before: string | null = null;
    const sizes: number[] = [];
    do {
      const params: Record<string, string> = {
        q: word,
        limit: "10",
        ...(before ? { before } : {}),
      };
      const response = await search(A.agent, params);
      expect(response.status).toBe(200);
      sizes.push(response.body.results.length);
      seen.push(...response.body.results.map((result) => result.messageId));
      before = response.body.nextCursor;
    } while (before);
    expect(sizes).toEqual([10, 10, 3]);
    expect(seen).toEqual([...ids].reverse());
    // The default page is 20.
    const first = await search(A.agent, { q: word });
    expect(first.body.results).toHaveLength(20);
    expect(first.body.nextCursor).toBe(String(first.body.results[19]!.seq));
  });
});

describe("who sees what", () => {
  it("gives an owner all their conversations, or the one named by clientId", async () => {
    expect(await found(A.agent, "kickoff")).toHaveLength(1);
    expect(await found(A.agent, "invoice", { clientId: A1.id })).toHaveLength(2);
    expect(await found(A.agent, "invoice", { clientId: A2.id })).toEqual(["Invoice_2026-7.pdf"]);
  });

  it("never shows another owner's messages", async () => {
    const bob = await search(B.agent, { q: "invoice" });
    expect(bob.body.results.map((result) => result.clientId)).toEqual([B1.id, B1.id]);
    expect(JSON.stringify(bob.body)).not.toContain("Carla");
    expect(await found(A.agent, "Erin")).toEqual([]);
    expect(await found(A.agent, "Bob's")).toEqual([]);
  });

  it("gives a client their own conversation only, not the owner's other clients'", async () => {
    const carla = await search(A1.agent, { q: "invoice" });
    expect(carla.body.results.map((result) => result.messageId)).toEqual([replyId, reviewId]);
    expect(carla.body.results[1]).toMatchObject({
      senderName: "Alice Owner",
      clientName: "Carla Client",
    });
    expect(await found(A1.agent, "kickoff")).toEqual([]);
    expect(await found(A1.agent, "2026")).toEqual([]);
    expect(await found(A1.agent, "invoice", { clientId: A1.id })).toHaveLength(2);
    expect(await found(A2.agent, "invoice")).toEqual(["Invoice_2026-7.pdf"]);
    expect(await found(B1.agent, "tomorrow")).toEqual([]);
    expect(await found(B1.agent, "kickoff")).toEqual([
      `Bob's own invoice, kickoff and café ${tag}`,
    ]);
  });

  it("answers 404 for a conversation that is not the caller's, and 401 signed out", async () => {
    const cases: [TestAgent, string][] = [
      [B.agent, A1.id],
      [A.agent, B1.id],
      [A1.agent, A2.id],
      [A2.agent, A1.id],
      [B1.agent, A1.id],
      [A.agent, randomUUID()],
      [A.agent, "not-a-uuid"],
    ];
    for (const [agent, clientId] of cases) {
      const response = await search(agent, { q: "invoice", clientId });
      expect(response.status, clientId).toBe(404);
      expect(response.body).toEqual({ message: "Client not found" });
    }
    const anonymous = await search(server.agent(), { q: "invoice" });
    expect(anonymous.status).toBe(401);
    expect(Object.keys(anonymous.body)).toEqual(["message"]);
  });

  it("forgets a deleted client's messages and files", async () => {
    const owner = await signUpOwner(server, "Fay Owner");
    const client = await addJoinedClient(server, owner, { name: "Gus Client" });
    await say(owner.agent, client.id, `${tag}gone soon`);
    await uploadFile(owner.agent, client.id, pdfOfSize(), `${tag}gone.pdf`);
    expect(await found(owner.agent, `${tag}gone`)).toHaveLength(2);
    expect((await owner.agent.delete(`/api/clients/${client.id}`)).status).toBe(200);
    expect(await found(owner.agent, `${tag}gone`)).toEqual([]);
  });
});

describe("bad input", () => {
  it("answers 400 with a message", async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, "Type something to search for"],
      [{ q: "   " }, "Type something to search for"],
      [{ q: "x".repeat(201) }, "Searches are limited to 200 characters"],
      [{ q: "invoice", limit: "0" }, "limit must be at least 1"],
      [{ q: "invoice", limit: "51" }, "limit must be at most 50"],
      [{ q: "invoice", limit: "ten" }, "limit must be a number"],
      [{ q: "invoice", before: "abc" }, "before must be the nextCursor of a search answer"],
      [{ q: "invoice", before: "-1" }, "before must be the nextCursor of a search answer"],
    ];
    for (const [params, message] of cases) {
      const response = await search(A.agent, params);
      expect(response.status, JSON.stringify(params)).toBe(400);
      expect(response.body).toEqual({ message });
    }
  });
});
