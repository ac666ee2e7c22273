import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoredFile, User } from "../../server/models";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { expectPath, expectToast, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";
import { pdfOfSize, uploadFile } from "../support/storage-files";

const screenshotDir = process.env.SCREENSHOT_DIR;

async function shot(page: Page, name: string) {
  if (screenshotDir) await page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
}

describe.skipIf(!browserAvailable)("storage and account deletion in the browser", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const pageAs = (agent: { cookieHeader: string }): Promise<Page> =>
    openPage(browser, server.url, agent, {
      viewport: { width: 1280, height: 860 },
      defaultTimeout: 10_000,
    });

  it("the plan box shows the storage used of the plan's quota", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    expect((await uploadFile(client.agent, client.id, pdfOfSize(1536 * 1024))).status).toBe(201);
    expect((await uploadFile(owner.agent, client.id, pdfOfSize(512 * 1024))).status).toBe(201);
    const page = await pageAs(owner.agent);
    await page.goto("/");
    const planBox = page.getByRole("region", { name: "Your plan" });
    await planBox.getByText("2 MB of 1 GB used", { exact: true }).waitFor();
    const bar = planBox.getByRole("progressbar", { name: "Storage used" });
    expect(await bar.getAttribute("aria-valuenow")).toBe(String(2 * 1024 * 1024));
    expect(await bar.getAttribute("aria-valuemax")).toBe(String(1024 ** 3));
    await shot(page, "plan-box-storage");
  });

  it("an upload past the quota is refused with a notice", async () => {
    const owner = await signUpOwner(server);
    const client = await addJoinedClient(server, owner);
    // As if 1 GB less 1 KB had been uploaded before.
    await StoredFile.query().insert({
      storedName: `${crypto.randomUUID().replaceAll("-", "")}.pdf`,
      originalName: "archive.pdf",
      contentType: "application/pdf",
      sizeBytes: 1024 ** 3 - 1024,
      uploadedBy: owner.id,
      clientId: client.id,
    });
    const page = await pageAs(owner.agent);
    await page.goto(`/?client=${client.id}`);
    await page
      .getByRole("region", { name: "Your plan" })
      .getByText("1024 MB of 1 GB used")
      .waitFor();
    await page.getByRole("button", { name: "Upload File" }).click();
    const dialog = page.getByRole("dialog", { name: "Upload File" });
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: "plan.pdf", mimeType: "application/pdf", buffer: pdfOfSize(4096) });
    await dialog.getByRole("button", { name: "Upload", exact: true }).click();
    await expectToast(page, "Failed to upload file");
    await expectToast(
      page,
      "Storage is full: this account's plan includes 1 GB. Delete files or upgrade to upload more.",
    );
    expect(await StoredFile.query().where("clientId", client.id)).toHaveLength(1);
  });

  it("an owner deletes their account from Settings, confirmed with the password", async () => {
    const owner = await signUpOwner(server, "Dora Deleter");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const page = await pageAs(owner.agent);
    // From an open conversation, just after an upload (its notice still on screen).
    await page.goto(`/?client=${client.id}`);
    await page.getByRole("button", { name: "Upload File" }).click();
    const upload = page.getByRole("dialog", { name: "Upload File" });
    await upload
      .locator('input[type="file"]')
      .setInputFiles({ name: "brief.pdf", mimeType: "application/pdf", buffer: pdfOfSize(4096) });
    await upload.getByRole("button", { name: "Upload", exact: true }).click();
    await expectToast(page, "File uploaded successfully");
    await page.getByRole("button", { name: "Account settings" }).click();
    const settings = page.getByRole("dialog", { name: "Account Settings" });
    await settings.getByRole("tab", { name: "Account" }).click();
    await settings.getByRole("button", { name: "Delete account" }).click();

    const confirm = page.getByRole("dialog", { name: "Delete your account permanently?" });
    await confirm.getByText("This cannot be undone.").waitFor();
    await shot(page, "delete-account-dialog");
    // A wrong password deletes nothing.
    await confirm.getByLabel("Your password").fill("not the password");
    await confirm.getByRole("button", { name: "Delete my account" }).click();
    await expectToast(page, "Password is incorrect");
    expect(await User.query().findById(owner.id)).toBeDefined();

    await confirm.getByLabel("Your password").fill(owner.password);
    await confirm.getByRole("button", { name: "Delete my account" }).click();
    await expectPath(page, "/auth");
    await expectToast(page, "Your account has been deleted");
    await page.getByRole("button", { name: "Sign In", exact: true }).waitFor();
    await shot(page, "account-deleted-notice");
    expect(await User.query().findById(owner.id)).toBeUndefined();
    expect((await client.agent.get("/api/user")).status).toBe(401);
    await server.smtp.waitFor(
      owner.email,
      (mail) => mail.subject === "Your ClientDesk account has been deleted",
    );

    // The old session opens nothing any more.
    await page.goto("/");
    await expectPath(page, "/auth");
  });
});
