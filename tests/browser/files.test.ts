import type { Browser, Locator, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { minimalPdf } from "../support/pdf";
import { addJoinedClient } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { expectToast, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";

/** Drops `file` on `target` as a browser would (dragenter, dragover, drop with a DataTransfer). */
async function dropFile(
  page: Page,
  target: Locator,
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, mimeType, bytes }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], name, { type: mimeType }));
      return transfer;
    },
    { name: file.name, mimeType: file.mimeType, bytes: [...file.buffer] },
  );
  for (const type of ["dragenter", "dragover", "drop"]) {
    await target.dispatchEvent(type, { dataTransfer });
  }
}

describe.skipIf(!browserAvailable)("files, previews and approvals in the browser", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const pageAs = (agent: { cookieHeader: string }, viewport?: { width: number; height: number }) =>
    openPage(browser, server.url, agent, { viewport });

  const log = (page: Page) => page.getByRole("log");

  it("owner sends a PDF for approval, the client sends it back, the owner sends version 2, the client approves", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const op = await pageAs(owner.agent);
    const cp = await pageAs(client.agent);
    await op.goto(`/?client=${client.id}`);
    await cp.goto(`/client/${client.id}`);
    await log(op).getByText("No messages yet").waitFor();
    await log(cp).getByText("No messages yet").waitFor();

    // The widget refuses a type that is not accepted, and a file over 10 MB.
    await op.getByRole("button", { name: "Upload File" }).click();
    let dialog = op.getByRole("dialog", { name: "Upload File" });
    const input = dialog.locator('input[type="file"]');
    await input.setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("hi"),
    });
    await expectToast(op, "File type not supported");
    await input.setInputFiles({
      name: "huge.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.alloc(10 * 1024 * 1024 + 1),
    });
    await expectToast(op, "File size must be less than 10 MB");
    expect(await dialog.getByRole("button", { name: "Upload", exact: true }).isDisabled()).toBe(
      true,
    );

    // An image without feedback: shown inline in both chats.
    const png = await sharp({
      create: { width: 64, height: 48, channels: 3, background: { r: 0, g: 147, b: 255 } },
    })
      .png()
      .toBuffer();
    await input.setInputFiles({ name: "mockup.png", mimeType: "image/png", buffer: png });
    await dialog.getByText("mockup.png").waitFor();
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await expectToast(op, "File uploaded successfully");
    await dialog.waitFor({ state: "detached" });
    await log(cp).getByRole("button", { name: "Preview mockup.png" }).waitFor();
    const image = log(cp).locator("img").first();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);

    // The owner drops a PDF on the conversation: the dialog opens with it; it needs feedback.
    await dropFile(op, op.locator(".conversation"), {
      name: "brief.pdf",
      mimeType: "application/pdf",
      buffer: minimalPdf("Version one"),
    });
    dialog = op.getByRole("dialog", { name: "Upload File" });
    await dialog.getByText("brief.pdf").waitFor();
    await dialog.getByLabel("Requires feedback").check();
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await expectToast(op, "File uploaded successfully");
    await log(op).getByText("Feedback Required").waitFor();

    // The client sees it live, with the decision buttons, and previews it.
    await cp.getByText("1 file waits for your approval").waitFor();
    const clientCard = log(cp).locator(".file-message", { hasText: "brief.pdf" });
    await clientCard.getByRole("button", { name: "Approve" }).waitFor();
    await clientCard.getByRole("button", { name: "Preview" }).click();
    const preview = cp.getByRole("dialog", { name: "brief.pdf" });
    // Drawn inline (pdf.js); tests/browser/previews.test.ts goes through pages and zoom.
    await preview.getByText("Page 1 of 1").waitFor();
    await preview.locator("canvas[data-rendered]").waitFor();
    const pdfLink = preview.getByRole("link", { name: "Download" });
    const pdfUrl = new URL((await pdfLink.getAttribute("href")) ?? "", server.url).toString();
    const answer = await cp.request.get(pdfUrl);
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toContain("application/pdf");
    expect((await answer.body()).subarray(0, 5).toString()).toBe("%PDF-");
    await preview.getByRole("button", { name: "Close" }).click();

    // Needs Work needs a comment.
    await clientCard.getByRole("button", { name: "Needs Work" }).click();
    await clientCard.getByRole("button", { name: "Send feedback" }).click();
    await expectToast(cp, "Feedback comment required");
    await expectToast(cp, "Please provide a comment when selecting 'Needs Work'");
    await clientCard.getByLabel("What needs work?").fill("Please use our new logo.");
    await clientCard.getByRole("button", { name: "Send feedback" }).click();
    await expectToast(cp, "Feedback submitted successfully");
    await clientCard.getByText("Needs Work", { exact: true }).waitFor();
    expect(await clientCard.getByRole("button", { name: "Approve" }).count()).toBe(0);

    // The owner sees it live, with the comment, and answers with a new version.
    const ownerCard = log(op).locator(".file-message", { hasText: "brief.pdf" });
    await ownerCard.getByText("Needs Work", { exact: true }).waitFor();
    await ownerCard.getByText("Please use our new logo.").waitFor();
    await ownerCard.getByRole("button", { name: "Upload new version" }).click();
    dialog = op.getByRole("dialog", { name: "Upload new version" });
    await dialog.locator('input[type="file"]').setInputFiles({
      name: "brief-v2.pdf",
      mimeType: "application/pdf",
      buffer: minimalPdf("Version two"),
    });
    await dialog.getByRole("button", { name: "Upload new version" }).click();
    await expectToast(op, "File uploaded successfully");

    // One file with its history: version 1 is a line, version 2 the card; the client approves.
    await log(cp)
      .getByText(/replaced by a newer version/)
      .waitFor();
    const latest = log(cp).locator(".file-message", { hasText: "brief-v2.pdf" });
    await latest.getByText("Version 2", { exact: false }).first().waitFor();
    await latest.getByRole("button", { name: "Approve" }).click();
    await expectToast(cp, "Feedback submitted successfully");
    await latest.getByText("Approved", { exact: true }).waitFor();

    const ownerLatest = log(op).locator(".file-message", { hasText: "brief-v2.pdf" });
    await ownerLatest.getByText("Approved", { exact: true }).waitFor();
    expect(await ownerLatest.getByRole("button", { name: "Upload new version" }).count()).toBe(0);
    await ownerLatest.getByRole("button", { name: /History/ }).click();
    const history = ownerLatest.locator(".file-history__list");
    await history.getByText("Version 1").waitFor();
    await history.getByText("Please use our new logo.").waitFor();
    await history.getByText("Approved", { exact: true }).waitFor();
    await expect.poll(() => op.getByText(/files? waits?/).count()).toBe(0);

    // The Attachments tab lists every file with its state, on both sides.
    await cp.getByRole("tab", { name: "Attachments" }).click();
    const files = cp.getByRole("list", { name: "Shared files" });
    await files.getByText("brief-v2.pdf").waitFor();
    await files.getByText("mockup.png").waitFor();
    await op.getByRole("tab", { name: "Attachments" }).click();
    await op.getByRole("list", { name: "Shared files" }).getByText("Needs Work").waitFor();
  }, 90_000);
});
