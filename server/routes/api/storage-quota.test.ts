import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient, setTier } from "../../../tests/support/conversations";
import { signUpOwner } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { pdfOfSize, storedKeys, uploadFile } from "../../../tests/support/storage-files";
import { GB } from "../../../shared/tiers";
import { StoredFile } from "../../models";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const FULL =
  "Storage is full: this account's plan includes 1 GB. Delete files or upgrade to upload more.";

/** A file row as if a large file had been uploaded earlier (its bytes are not needed here). */
async function pretendUploaded(clientId: string, uploadedBy: string, sizeBytes: number) {
  await StoredFile.query().insert({
    storedName: `${crypto.randomUUID().replaceAll("-", "")}.pdf`,
    originalName: "archive.pdf",
    contentType: "application/pdf",
    sizeBytes,
    uploadedBy,
    clientId,
  });
}

describe("the storage quota of an owner's account", () => {
  it("counts both sides' uploads, refuses what would exceed it, and shows the usage", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    const tier = async () => (await owner.agent.get("/api/user/account-tier")).body;
    expect((await tier()).storage).toEqual({ usedBytes: 0, quotaBytes: GB });

    expect((await uploadFile(owner.agent, client.id, pdfOfSize(1000))).status).toBe(201);
    expect((await uploadFile(client.agent, client.id, pdfOfSize(2000))).status).toBe(201);
    expect((await tier()).storage).toEqual({ usedBytes: 3000, quotaBytes: GB });

    // 1 GB = 1024^3 bytes: leave room for 1500 more.
    await pretendUploaded(client.id, client.userId, GB - 3000 - 1500);
    const before = storedKeys(server.dataDir);
    for (const agent of [client.agent, owner.agent]) {
      const refused = await uploadFile(agent, client.id, pdfOfSize(1501));
      expect(refused.status).toBe(413);
      expect(refused.body).toEqual({ message: FULL });
      // Nothing was kept.
      expect(storedKeys(server.dataDir)).toEqual(before);
    }
    expect((await tier()).storage).toEqual({ usedBytes: GB - 1500, quotaBytes: GB });
    expect((await uploadFile(client.agent, client.id, pdfOfSize(1500))).status).toBe(201);
    expect((await tier()).storage.usedBytes).toBe(GB);
    expect((await uploadFile(owner.agent, client.id, pdfOfSize(200))).status).toBe(413);

    // A larger plan has room again: Pro includes 20 GB.
    await setTier(owner.id, "pro");
    expect((await tier()).storage).toEqual({ usedBytes: GB, quotaBytes: 20 * GB });
    expect((await uploadFile(owner.agent, client.id, pdfOfSize(200))).status).toBe(201);
  });

  it("is the owner's: another owner's files do not count", async () => {
    const full = await signUpOwner(server);
    const fullClient = await addJoinedClient(server, full);
    await pretendUploaded(fullClient.id, full.id, GB);
    const other = await signUpOwner(server);
    const otherClient = await addJoinedClient(server, other);
    expect((await uploadFile(other.agent, otherClient.id, pdfOfSize(300))).status).toBe(201);
    expect((await other.agent.get("/api/user/account-tier")).body.storage.usedBytes).toBe(300);
    expect((await uploadFile(fullClient.agent, fullClient.id, pdfOfSize(300))).status).toBe(413);
  });
});
