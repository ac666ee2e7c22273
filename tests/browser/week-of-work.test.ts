import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserAvailable, launchBrowser } from "../support/browser";
import { addJoinedContact } from "../support/contacts";
import { addJoinedClient, setTier } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { expectToast, keepScreenshot, openPage } from "../support/page";
import { minimalPdf } from "../support/pdf";
import { type TestServer, startTestServer } from "../support/server";
import { addStaff } from "../support/team";

const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

// Issue 26, "done when": an agency of three (Olga the owner, Alex an admin, Sam a member) and a
// client company of two (Carla, who was invited first, and Dora, her director) through a week
// of work: the client is assigned to Sam, Carla asks, Sam notes and answers, Dora approves the
// plan, and on Friday Sam leaves the team; what he wrote stays, under his name.
describe.skipIf(!browserAvailable)("a week of work for an agency and a client company", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const message = (page: Page, text: string): Locator =>
    page.getByRole("log").getByRole("listitem").filter({ hasText: text });
  const open = (agent: { cookieHeader: string }, viewport: typeof PHONE) =>
    openPage(browser, server.url, agent, { viewport, defaultTimeout: 10_000 });

  it("assigns, answers, notes, approves and removes a member", async () => {
    const olga = await signUpOwner(server, "Olga Owner");
    await setTier(olga.id, "agency");
    await olga.agent.patch("/api/user/profile", {
      fullName: "Olga Owner",
      companyName: "Studio Olga",
    });
    await addStaff(server, olga, "admin", "Alex Admin");
    const sam = await addStaff(server, olga, "member", "Sam Staff");
    const carla = await addJoinedClient(server, olga, { name: "Carla Client" });
    const dora = await addJoinedContact(server, olga, carla.id, { name: "Dora Director" });

    // Monday: Olga gives the client to Sam, whose open dashboard shows it at once.
    const samPage = await open(sam.agent, DESKTOP);
    await samPage.goto("/");
    const samList = samPage.getByRole("navigation", { name: "Clients" });
    await samList.getByText("No clients assigned to you yet").waitFor();
    const olgaPage = await open(olga.agent, DESKTOP);
    await olgaPage.goto(`/?client=${carla.id}`);
    await olgaPage.getByRole("button", { name: "Assign Carla Client" }).click();
    const assign = olgaPage.getByRole("dialog", { name: "Who handles Carla Client?" });
    await assign.getByRole("checkbox", { name: /Sam Staff/ }).check();
    await assign.getByRole("button", { name: "Save" }).click();
    await expectToast(olgaPage, "Assignment saved");
    await samList.getByRole("link", { name: /Carla Client/ }).click();
    const samField = samPage.getByRole("textbox", { name: "Message" });
    await samField.waitFor();

    // Tuesday: Carla asks from her phone; Sam sees it arrive.
    const carlaPhone = await open(carla.agent, PHONE);
    await carlaPhone.goto(`/client/${carla.id}`);
    const carlaField = carlaPhone.getByRole("textbox", { name: /message/i });
    await carlaField.fill("Can we move the launch to Friday?");
    await carlaField.press("Enter");
    await message(samPage, "Can we move the launch to Friday?").waitFor();

    // Sam notes for the team, then answers the client.
    await samPage.getByRole("button", { name: "Internal note", exact: true }).click();
    const noteField = samPage.getByRole("textbox", { name: "Internal note" });
    await noteField.fill("Dora signs off on dates, not Carla.");
    await noteField.press("Enter");
    await message(samPage, "Dora signs off on dates").getByText("Internal note").waitFor();
    await samPage.getByRole("button", { name: "Reply", exact: true }).click();
    await samField.fill("Friday works for us; Dora, please confirm.");
    await samField.press("Enter");

    // Both of the client's people read the answer under Sam's name, never the note.
    const doraPhone = await open(dora.agent, PHONE);
    await doraPhone.goto(`/client/${carla.id}`);
    for (const phone of [carlaPhone, doraPhone]) {
      const answer = message(phone, "Friday works for us");
      await answer.waitFor();
      expect(await answer.locator(".message__author").textContent()).toBe("Sam Staff");
      expect(await answer.locator(".message__side").textContent()).toBe("Studio Olga");
      expect(await phone.getByText("Dora signs off on dates").count()).toBe(0);
    }
    // Olga and Alex's side sees the note too.
    await message(olgaPage, "Dora signs off on dates").waitFor();

    // Wednesday: Olga sends the launch plan for approval; Dora approves it on her phone.
    const body = new FormData();
    body.append("requiresFeedback", "true");
    body.append(
      "file",
      new Blob([new Uint8Array(minimalPdf())], { type: "application/pdf" }),
      "Launch plan.pdf",
    );
    const upload = await olga.agent.request("POST", `/api/clients/${carla.id}/upload`, { body });
    expect(upload.status).toBe(201);
    const plan = message(doraPhone, "Launch plan.pdf");
    await plan.getByRole("button", { name: "Approve" }).click();
    await expectToast(doraPhone, "Feedback submitted successfully");
    // Sam's conversation says who decided.
    const samPlan = message(samPage, "Launch plan.pdf");
    await samPlan.getByText("Approved", { exact: true }).waitFor();
    await samPlan.getByText("by Dora Director").waitFor();
    await keepScreenshot(samPage, "week-sam-dashboard");
    await keepScreenshot(doraPhone, "week-dora-portal");

    // Friday: Sam leaves the team. His sessions end; what he wrote stays, under his name.
    await olgaPage.goto("/?settings=team");
    const members = olgaPage.getByRole("list", { name: "Team members" });
    await members.getByRole("button", { name: "Remove Sam Staff" }).click();
    await olgaPage
      .getByRole("dialog", { name: "Remove Sam Staff?" })
      .getByRole("button", { name: "Remove" })
      .click();
    await expectToast(olgaPage, "Sam Staff was removed from the team");
    expect((await samPage.request.get("/api/user")).status()).toBe(401);
    await carlaPhone.reload();
    const kept = message(carlaPhone, "Friday works for us");
    await kept.waitFor();
    expect(await kept.locator(".message__author").textContent()).toBe("Sam Staff");
    // The client is nobody's now: it is the owner's and the admin's again (the client cache
    // hears of the change through the database's notification).
    await expect
      .poll(async () => (await olga.agent.get(`/api/clients/${carla.id}/assignees`)).body)
      .toEqual({ assigneeIds: [], leadUserId: null });
    await keepScreenshot(carlaPhone, "week-carla-portal");
    for (const page of [samPage, olgaPage, carlaPhone, doraPhone]) await page.close();
  });
});
