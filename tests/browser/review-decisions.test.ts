import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousAxeViolations } from "../support/axe";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedClient } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { expectToast, keepScreenshot, openPage } from "../support/page";
import { minimalPdf } from "../support/pdf";
import { type TestAgent, type TestServer, startTestServer } from "../support/server";

// Issue 27, decisions that point: the file says how many marks are open, Needs Work lists
// them, the next version asks to check them, and approving resolves them.

describe.skipIf(!browserAvailable)("decisions that point, in the browser", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const log = (page: Page) => page.getByRole("log");

  async function upload(agent: TestAgent, path: string, name: string, requiresFeedback: boolean) {
    const body = new FormData();
    if (requiresFeedback) body.append("requiresFeedback", "true");
    body.append(
      "file",
      new Blob([new Uint8Array(minimalPdf(name))], { type: "application/pdf" }),
      name,
    );
    const response = await agent.request("POST", path, { body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as { id: string };
  }

  const mark = (agent: TestAgent, messageId: string, version: number, comment: string, page = 1) =>
    agent.post(`/api/messages/${messageId}/versions/${version}/annotations`, {
      page,
      x: 0.4,
      y: 0.3,
      width: 0,
      height: 0,
      comment,
    });

  it("counts, lists and carries open marks; approving resolves them (1280 px and 375 px)", async () => {
    const owner = await signUpOwner(server, "Olivia Owner");
    const client = await addJoinedClient(server, owner, { name: "Carla Client" });
    const file = await upload(owner.agent, `/api/clients/${client.id}/upload`, "poster.pdf", true);
    await mark(client.agent, file.id, 1, "Logo too small", 3);
    await mark(client.agent, file.id, 1, "Typo in the headline");

    const op = await openPage(browser, server.url, owner.agent, {
      viewport: { width: 1280, height: 800 },
    });
    const cp = await openPage(browser, server.url, client.agent, {
      viewport: { width: 375, height: 740 },
    });
    await op.goto(`/?client=${client.id}`);
    await cp.goto(`/client/${client.id}`);
    const ownerCard = log(op).locator(".file-message", { hasText: "poster.pdf" });
    const clientCard = log(cp).locator(".file-message", { hasText: "poster.pdf" });

    // The owner's conversation says how many marks are open; the client is told approving
    // resolves them.
    await ownerCard.getByRole("button", { name: "2 open marks" }).waitFor();
    await clientCard.getByText("Approving resolves the 2 open marks.").waitFor();

    // A third mark arrives live.
    expect((await mark(client.agent, file.id, 1, "Wrong blue")).status).toBe(201);
    await ownerCard.getByRole("button", { name: "3 open marks" }).waitFor();

    // Needs Work lists the marks, by page, with the comment (keyboard only).
    await clientCard.getByRole("button", { name: "Needs Work" }).focus();
    await cp.keyboard.press("Enter");
    const listed = clientCard.getByRole("region", { name: "Your open marks: 3 open marks" });
    await listed.getByText("Logo too small").waitFor();
    await expect
      .poll(() => listed.getByRole("listitem").allInnerTexts())
      .toEqual([
        expect.stringContaining("Page 3"),
        expect.stringContaining("Page 1"),
        expect.stringContaining("Page 1"),
      ]);
    await keepScreenshot(cp, "review-needs-work-form");
    await cp.keyboard.type("See the three marks");
    await clientCard.getByRole("button", { name: "Send feedback" }).click();
    await expectToast(cp, "Feedback submitted successfully");

    const ownerList = ownerCard.getByRole("region", { name: "Open marks: 3 open marks" });
    await ownerList.getByText("Wrong blue").waitFor();
    await keepScreenshot(op, "review-needs-work-owner");
    await expectNoSeriousAxeViolations(op, "owner's card with open marks");

    // The owner resolves one, then answers with version 2: the others come along to check.
    const marks = await owner.agent.get(`/api/messages/${file.id}/versions/1/annotations`);
    const blue = (marks.body as { id: string; comment: string }[]).find(
      (m) => m.comment === "Wrong blue",
    );
    await owner.agent.patch(`/api/annotations/${blue?.id}`, { resolved: true });
    await ownerCard.getByRole("button", { name: "2 open marks" }).waitFor();
    await upload(owner.agent, `/api/messages/${file.id}/versions`, "poster-v2.pdf", false);

    const latest = log(cp).locator(".file-message", { hasText: "poster-v2.pdf" });
    const check = latest.getByRole("region", { name: "Check these: 2 open marks" });
    await check.getByText("Logo too small").waitFor();
    expect(await check.getByText("Check this").count()).toBe(2);
    await keepScreenshot(cp, "review-check-these");
    await expectNoSeriousAxeViolations(cp, "client's card with marks to check");

    await latest.getByText("Approving resolves the 2 open marks.").waitFor();
    await latest.getByRole("button", { name: "Approve" }).click();
    await expectToast(cp, "Feedback submitted successfully");
    await latest.getByText("Approved", { exact: true }).waitFor();
    const ownerLatest = log(op).locator(".file-message", { hasText: "poster-v2.pdf" });
    await ownerLatest.getByText("Approved", { exact: true }).waitFor();
    await expect.poll(() => ownerLatest.getByRole("button", { name: /open mark/ }).count()).toBe(0);
  }, 90_000);
});
