import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, browserAvailable } from "../support/browser";
import { addJoinedClient, setTier } from "../support/conversations";
import { signUpOwner } from "../support/factories";
import { expectToast, keepScreenshot, openPage } from "../support/page";
import { type TestServer, startTestServer } from "../support/server";
import { addStaff } from "../support/team";

// Issue 26, assignment: the owner gives a client to a member, whose open dashboard shows it at
// once; taken back, it goes.
describe.skipIf(!browserAvailable)("assigning a client", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("reaches the member's open dashboard live, both ways", async () => {
    const owner = await signUpOwner(server, "Olga Owner");
    await setTier(owner.id, "agency");
    const member = await addStaff(server, owner, "member", "Mia Member");
    const acme = await addJoinedClient(server, owner, { name: "Acme Studio" });

    const memberPage = await openPage(browser, server.url, member.agent);
    await memberPage.goto("/");
    const memberList = memberPage.getByRole("navigation", { name: "Clients" });
    await memberList.getByText("No clients assigned to you yet").waitFor();

    const ownerPage = await openPage(browser, server.url, owner.agent, {
      viewport: { width: 1280, height: 800 },
    });
    await ownerPage.goto(`/?client=${acme.id}`);
    await ownerPage.getByRole("button", { name: "Assign Acme Studio" }).click();
    const dialog = ownerPage.getByRole("dialog", { name: "Who handles Acme Studio?" });
    await dialog.getByRole("checkbox", { name: /Mia Member/ }).check();
    expect(await dialog.getByRole("radio", { name: "Mia Member leads" }).isChecked()).toBe(true);
    await keepScreenshot(ownerPage, "assign-dialog");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expectToast(ownerPage, "Assignment saved");
    await ownerPage.getByRole("button", { name: "Assigned to Mia Member: change" }).waitFor();

    // No reload: the member's list learns of it over the websocket.
    const entry = memberList.getByRole("link", { name: /Acme Studio/ });
    await entry.waitFor();
    await entry.click();
    await memberPage.getByRole("textbox", { name: /message/i }).waitFor();
    // A member does not assign, delete clients or buy plans.
    expect(await memberPage.getByRole("button", { name: /Assign|Assigned to/ }).count()).toBe(0);
    expect(await memberPage.getByRole("button", { name: "Delete Acme Studio" }).count()).toBe(0);
    expect(await memberPage.getByRole("link", { name: /View plans|Upgrade plan/ }).count()).toBe(0);
    expect(await ownerPage.getByRole("button", { name: "Delete Acme Studio" }).count()).toBe(1);
    await keepScreenshot(memberPage, "assigned-member");

    await ownerPage.getByRole("button", { name: "Assigned to Mia Member: change" }).click();
    await dialog.getByRole("checkbox", { name: /Mia Member/ }).uncheck();
    await dialog.getByRole("button", { name: "Save" }).click();
    await expectToast(ownerPage, "Assignment saved");
    await memberList.getByText("No clients assigned to you yet").waitFor();
    await ownerPage.close();
    await memberPage.close();
  });
});
