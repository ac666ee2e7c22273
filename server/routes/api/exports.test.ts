import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedContact, type JoinedContact } from "../../../tests/support/contacts";
import { addJoinedClient, type JoinedClient, setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { minimalPdf } from "../../../tests/support/pdf";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import { addStaff } from "../../../tests/support/team";
import { downloadZip, sha256, type ZipDownload } from "../../../tests/support/zip-download";

// Issue 28, point 4: exports. Each export is downloaded, unzipped with yauzl (which checks
// every entry's CRC-32 and size) and compared file by file, by SHA-256, with what was uploaded.

let server: TestServer;
let owner: SignedInOwner;
let admin: SignedInOwner;
let assigned: SignedInOwner;
let unassigned: SignedInOwner;
let acme: JoinedClient;
let dora: JoinedContact;
let other: JoinedClient;
let stranger: SignedInOwner;
let strangersClient: JoinedClient;
/** SHA-256 of every uploaded version, by the path the export should give it. */
const uploaded = new Map<string, string>();
const today = new Date().toISOString().slice(0, 10);

function pdfForm(bytes: Buffer, name: string, requiresFeedback = false): FormData {
  const body = new FormData();
  if (requiresFeedback) body.append("requiresFeedback", "true");
  body.append("file", new Blob([new Uint8Array(bytes)], { type: "application/pdf" }), name);
  return body;
}

async function upload(path: string, bytes: Buffer, name: string, requiresFeedback = false) {
  const sent = await owner.agent.request("POST", path, {
    body: pdfForm(bytes, name, requiresFeedback),
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  return sent.body as { id: string };
}

async function say(agent: TestAgent, clientId: string, content: string, internal = false) {
  const sent = await agent.post(`/api/clients/${clientId}/messages`, {
    content,
    ...(internal ? { visibility: "internal" } : {}),
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await signUpOwner(server, "Olivia Owner");
  await setTier(owner.id, "agency");
  admin = await addStaff(server, owner, "admin", "Adam Admin");
  assigned = await addStaff(server, owner, "member", "Mia Member");
  unassigned = await addStaff(server, owner, "member", "Ned Member");
  acme = await addJoinedClient(server, owner, { name: "Acme & Co" });
  other = await addJoinedClient(server, owner, { name: "Acme & Co" });
  dora = await addJoinedContact(server, owner, acme.id, { name: "Dora Director" });
  const assign = await owner.agent.put(`/api/clients/${acme.id}/assignees`, {
    userIds: [assigned.id],
  });
  expect(assign.status).toBe(200);
  stranger = await signUpOwner(server, "Bob Stranger");
  strangersClient = await addJoinedClient(server, stranger, { name: "Bob's Client" });

  await say(owner.agent, acme.id, 'Hello <b>Acme</b> & "friends"\nsecond line');
  await say(owner.agent, acme.id, "Secret note: our margin is 40%", true);
  await say(acme.agent, acme.id, "Thanks! <script>alert(1)</script>");
  const v1 = minimalPdf("poster one");
  const first = await upload(`/api/clients/${acme.id}/upload`, v1, "poster.pdf", true);
  const needsWork = await acme.agent.patch(`/api/messages/${first.id}/feedback`, {
    feedbackStatus: "needs_work",
    feedbackComment: '=HYPERLINK("http://evil.test") "fix", please',
  });
  expect(needsWork.status, JSON.stringify(needsWork.body)).toBe(200);
  const v2 = minimalPdf("poster two");
  const second = await upload(`/api/messages/${first.id}/versions`, v2, "poster.pdf");
  const approved = await dora.agent.patch(`/api/messages/${second.id}/feedback`, {
    feedbackStatus: "approved",
  });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  const same = minimalPdf("another poster, same name");
  await upload(`/api/clients/${acme.id}/upload`, same, "poster.pdf");
  const odd = minimalPdf("odd name");
  await upload(`/api/clients/${acme.id}/upload`, odd, ".brief: v1 <final>?.pdf");
  uploaded.set(`files/${today}-poster.pdf/v1-poster.pdf`, sha256(v1));
  uploaded.set(`files/${today}-poster.pdf/v2-poster.pdf`, sha256(v2));
  uploaded.set(`files/${today}-poster (2).pdf/v1-poster.pdf`, sha256(same));
  uploaded.set(`files/${today}-brief_ v1 _final_.pdf/v1-brief_ v1 _final_.pdf`, sha256(odd));
  await say(acme.agent, acme.id, "Last words");
});
afterAll(() => server?.close());

const exportOf = (clientId: string) => `${server.url}/api/clients/${clientId}/export`;

/** The entries of a conversation's export, by SHA-256 of their bytes (files/ only). */
function fileHashes(zip: ZipDownload, folder = ""): Map<string, string> {
  const hashes = new Map<string, string>();
  for (const [name, bytes] of zip.entries)
    if (name.startsWith(`${folder}files/`)) hashes.set(name.slice(folder.length), sha256(bytes));
  return hashes;
}

describe("a conversation's export", () => {
  it("streams a ZIP of the transcript (notes marked), every version of every file, and approvals.csv", async () => {
    const zip = await downloadZip(exportOf(acme.id), owner.agent);
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    expect(zip.headers.get("content-disposition")).toBe(
      `attachment; filename="clientdesk-acme-co-${today}.zip"`,
    );
    expect([...zip.entries.keys()].sort()).toEqual(
      ["approvals.csv", "transcript.html", ...uploaded.keys()].sort(),
    );
    expect(fileHashes(zip)).toEqual(uploaded);

    const html = zip.entries.get("transcript.html")!.toString("utf8");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("Hello &lt;b&gt;Acme&lt;/b&gt; &amp; &quot;friends&quot;\nsecond line");
    expect(html).toContain("Thanks! &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>Acme</b>");
    expect(html).toContain("Secret note: our margin is 40%");
    expect(html).toMatch(
      /message--internal[^>]*>.*Internal note<\/span><\/header><p class="text">Secret note/,
    );
    expect(html).toContain(
      '<span class="author">Olivia Owner</span><span class="side">Team</span>',
    );
    expect(html).toContain(
      '<span class="author">Acme &amp; Co</span><span class="side">Client</span>',
    );
    expect(html).toContain(`href="files/${today}-poster.pdf/v2-poster.pdf"`);
    expect(html).toContain(`href="files/${today}-poster%20(2).pdf/v1-poster.pdf"`);
    expect(html).toMatch(
      /<time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">\d{1,2} \w{3} \d{4}, \d\d:\d\d UTC<\/time>/,
    );
    expect(html).toMatch(
      /Needs work<\/span> by Acme &amp; Co on [^:]+:\d\d UTC: <span class="comment">=HYPERLINK\(&quot;http:\/\/evil.test&quot;\) &quot;fix&quot;, please/,
    );
    expect(html).toMatch(/Approved<\/span> by Dora Director on /);
    // Oldest first: the last message closes the list.
    expect(html.indexOf("Hello &lt;b&gt;")).toBeLessThan(html.indexOf("Last words"));

    const csv = zip.entries.get("approvals.csv")!.toString("utf8").split("\r\n");
    expect(csv[0]).toBe("File,Version,Status,Decided by,Decided at,Comment");
    expect(csv[1]).toMatch(
      /^poster\.pdf,1,needs work,Acme & Co,\d{4}-\d\d-\d\dT[\d:.]+Z,"'=HYPERLINK\(""http:\/\/evil\.test""\) ""fix"", please"$/,
    );
    expect(csv[2]).toMatch(/^poster\.pdf,2,approved,Dora Director,\d{4}-[\d:.T-]+Z,$/);
    expect(csv.slice(3)).toEqual([""]);
  });

  it("gives a client's people their own data without internal notes", async () => {
    for (const agent of [acme.agent, dora.agent]) {
      const zip = await downloadZip(`${server.url}/api/portal/export`, agent);
      expect(zip.status).toBe(200);
      expect(zip.headers.get("content-disposition")).toBe(
        `attachment; filename="clientdesk-acme-co-${today}.zip"`,
      );
      expect(fileHashes(zip)).toEqual(uploaded);
      const html = zip.entries.get("transcript.html")!.toString("utf8");
      expect(html).not.toContain("Secret note");
      expect(html).not.toContain("margin is 40%");
      expect(html).not.toContain("Internal note");
      expect(html).toContain("Hello &lt;b&gt;Acme&lt;/b&gt;");
      expect(html).toContain("Last words");
      expect(zip.entries.get("approvals.csv")!.toString("utf8")).toContain("Dora Director");
    }
  });

  it("exports the whole workspace for its owner and admins, a folder per client", async () => {
    for (const agent of [owner.agent, admin.agent]) {
      const zip = await downloadZip(`${server.url}/api/export`, agent);
      expect(zip.status).toBe(200);
      expect(zip.headers.get("content-disposition")).toBe(
        `attachment; filename="clientdesk-olivia-owner-${today}.zip"`,
      );
      const names = [...zip.entries.keys()];
      expect(names.filter((name) => !name.includes("/files/")).sort()).toEqual([
        "Acme & Co (2)/approvals.csv",
        "Acme & Co (2)/transcript.html",
        "Acme & Co/approvals.csv",
        "Acme & Co/transcript.html",
        "index.html",
      ]);
      // Both clients are named Acme & Co: the first by name and age gets the plain folder.
      const folder = names.some((name) => name.startsWith("Acme & Co/files/"))
        ? "Acme & Co/"
        : "Acme & Co (2)/";
      expect(fileHashes(zip, folder)).toEqual(uploaded);
      expect(zip.entries.get(`${folder}transcript.html`)!.toString("utf8")).toContain(
        "Secret note",
      );
      expect(zip.entries.get("index.html")!.toString("utf8")).toContain(
        'href="Acme%20%26%20Co%20(2)/transcript.html"',
      );
      expect(names.join("\n")).not.toContain("Bob");
    }
  });
});

describe("who may export what", () => {
  type Who =
    | "anon"
    | "owner"
    | "admin"
    | "assigned"
    | "unassigned"
    | "client"
    | "dora"
    | "other"
    | "stranger"
    | "strangersClient";
  const agentOf = (who: Who): TestAgent | undefined =>
    ({
      anon: undefined,
      owner: owner.agent,
      admin: admin.agent,
      assigned: assigned.agent,
      unassigned: unassigned.agent,
      client: acme.agent,
      dora: dora.agent,
      other: other.agent,
      stranger: stranger.agent,
      strangersClient: strangersClient.agent,
    })[who];

  const routes: { path: () => string; expect: Record<Who, number> }[] = [
    {
      path: () => exportOf(acme.id),
      expect: {
        anon: 401,
        owner: 200,
        admin: 200,
        assigned: 200,
        unassigned: 404,
        client: 403,
        dora: 403,
        other: 404,
        stranger: 404,
        strangersClient: 404,
      },
    },
    {
      path: () => `${server.url}/api/export`,
      expect: {
        anon: 401,
        owner: 200,
        admin: 200,
        assigned: 403,
        unassigned: 403,
        client: 403,
        dora: 403,
        other: 403,
        stranger: 200,
        strangersClient: 403,
      },
    },
    {
      path: () => `${server.url}/api/portal/export`,
      expect: {
        anon: 401,
        owner: 403,
        admin: 403,
        assigned: 403,
        unassigned: 403,
        client: 200,
        dora: 200,
        other: 200,
        stranger: 403,
        strangersClient: 200,
      },
    },
    {
      path: () => exportOf("not-a-uuid"),
      expect: {
        anon: 401,
        owner: 404,
        admin: 404,
        assigned: 404,
        unassigned: 404,
        client: 404,
        dora: 404,
        other: 404,
        stranger: 404,
        strangersClient: 404,
      },
    },
  ];

  it("answers each role on each export route as the policy says, never another's data", async () => {
    for (const route of routes) {
      for (const [who, status] of Object.entries(route.expect) as [Who, number][]) {
        const zip = await downloadZip(route.path(), agentOf(who));
        expect(`${who} ${route.path()} ${zip.status}`).toBe(`${who} ${route.path()} ${status}`);
        if (status !== 200) {
          expect(zip.json).toEqual({ message: expect.any(String) });
          continue;
        }
        const transcripts = [...zip.entries]
          .filter(([name]) => name.endsWith("transcript.html"))
          .map(([, bytes]) => bytes.toString("utf8"))
          .join("\n");
        // A contact's export never holds a note; strangers' exports never hold Acme's words.
        if (["client", "dora", "other", "strangersClient"].includes(who))
          expect(transcripts).not.toContain("Secret note");
        if (["stranger", "strangersClient", "other"].includes(who))
          expect(transcripts).not.toContain("Hello &lt;b&gt;Acme");
      }
    }
    expect(
      (await downloadZip(exportOf(acme.id), assigned.agent)).entries
        .get("transcript.html")!
        .toString(),
    ).toContain("Secret note");
    // HEAD says what GET would answer, and builds nothing.
    const head = await fetch(exportOf(acme.id), {
      method: "HEAD",
      headers: { cookie: owner.agent.cookieHeader },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("application/zip");
  });
});

describe("an export whose stored file is gone", () => {
  it("ends the download short instead of sending a ZIP without it, and the server carries on", async () => {
    const lost = await addJoinedClient(server, owner, { name: "Lost Files Ltd" });
    const body = new FormData();
    body.append(
      "file",
      new Blob([new Uint8Array(minimalPdf("gone"))], { type: "application/pdf" }),
      "gone.pdf",
    );
    const sent = await owner.agent.request("POST", `/api/clients/${lost.id}/upload`, { body });
    expect(sent.status).toBe(201);
    await server.services.storage.delete(sent.body.fileUrl.split("/").pop());
    const broken = await fetch(exportOf(lost.id), {
      headers: { cookie: owner.agent.cookieHeader },
    });
    // The answer had started, and its body breaks off.
    expect(broken.status).toBe(200);
    await expect(broken.arrayBuffer()).rejects.toThrow("terminated");
    expect((await downloadZip(exportOf(acme.id), owner.agent)).status).toBe(200);
  });
});

describe("an export after edits, deletions and a deleted client", () => {
  it("shows an edited message's new text, a deleted one as deleted, and leaves a deleted client out", async () => {
    const olivia = await signUpOwner(server, "Olivia Other");
    await setTier(olivia.id, "agency");
    const kept = await addJoinedClient(server, olivia, { name: "Kept Client" });
    const gone = await addJoinedClient(server, olivia, { name: "Gone Client" });
    const post = (content: string) =>
      olivia.agent.post(`/api/clients/${kept.id}/messages`, { content });
    const typo = (await post("See you Mnday")).body as { id: string };
    const mistake = (await post("Meant for another client")).body as { id: string };
    expect(
      (await olivia.agent.patch(`/api/messages/${typo.id}`, { content: "See you Monday" })).status,
    ).toBe(200);
    expect((await olivia.agent.request("DELETE", `/api/messages/${mistake.id}`)).status).toBe(200);
    expect((await olivia.agent.patch("/api/workspace/retention", { days: 7 })).status).toBe(200);
    expect((await olivia.agent.request("DELETE", `/api/clients/${gone.id}`)).status).toBeLessThan(
      300,
    );

    const zip = await downloadZip(`${server.url}/api/export`, olivia.agent);
    expect(zip.status).toBe(200);
    const names = [...zip.entries.keys()];
    expect(names.some((name) => name.startsWith("Kept Client/"))).toBe(true);
    expect(names.join("\n")).not.toContain("Gone Client");
    const transcript = zip.entries.get("Kept Client/transcript.html")!.toString("utf8");
    expect(transcript).toContain("See you Monday");
    expect(transcript).toContain("(edited)");
    expect(transcript).not.toContain("Mnday");
    expect(transcript).toContain("Message deleted");
    expect(transcript).not.toContain("Meant for another client");
    expect((await downloadZip(exportOf(gone.id), olivia.agent)).status).toBe(404);
  });
});
