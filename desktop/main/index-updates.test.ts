/**
 * Updates wired by the composition root: the whole app started with the fake Electron, as a
 * .deb install (resources/package-type) with CLIENTDESK_UPDATE_URL pointing at a static update
 * server on 127.0.0.1. The install itself is intercepted at quitAndInstall (it would run dpkg).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DebUpdater } from "electron-updater";
import { afterEach, describe, expect, it, vi } from "vitest";
import { provideElectronModule } from "../test/electron-module";
import { createFakeElectron, fakeEvent } from "../test/fake-electron";
import {
  artifact,
  artifactName,
  channelFile,
  latestYml,
  startUpdateServer,
  type UpdateServer,
} from "../test/update-server";

// index.ts imports the real module only to start itself inside Electron; never here.
vi.mock("electron", () => ({}));

const { startDesktopApp } = await import("./index");

const mainDir = fileURLToPath(new URL("../../out/main", import.meta.url));
let server: UpdateServer | null = null;
let restoreElectron = () => {};

afterEach(async () => {
  restoreElectron();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await server?.close();
});

describe("updates in the app", () => {
  it("offers Restart to update in the tray and a notification, and lets the windows close", async () => {
    server = await startUpdateServer({
      [channelFile]: latestYml("1.0.1"),
      [artifactName]: artifact,
    });
    vi.stubEnv("XDG_CACHE_HOME", mkdtempSync(path.join(tmpdir(), "clientdesk-update-cache-")));
    const resources = mkdtempSync(path.join(tmpdir(), "clientdesk-resources-"));
    writeFileSync(path.join(resources, "package-type"), "deb\n");
    const install = vi.spyOn(DebUpdater.prototype, "quitAndInstall").mockImplementation(() => {});
    const fake = createFakeElectron();
    restoreElectron = provideElectronModule(fake);
    const logs: string[] = [];

    const window = await startDesktopApp(fake.electron, {
      env: { CLIENTDESK_UPDATE_URL: server.url },
      platform: "linux",
      mainDir,
      resourcesPath: resources,
      log: (message) => logs.push(message),
    }).ready;

    await expect.poll(() => fake.notifications.length).toBe(1);
    expect(fake.notifications[0]!.options.title).toBe("Update ready: ClientDesk 1.0.1");
    const menu = (fake.trays[0]!.menu as { template: { label?: string; click?: () => void }[] })
      .template;
    const restart = menu.find((item) => item.label === "Restart to update");
    expect(restart).toBeDefined();
    // ...and in the application menu (File on Linux and Windows).
    const appMenu = (
      fake.applicationMenus.at(-1) as {
        template: { label?: string; submenu?: { label?: string }[] }[];
      }
    ).template;
    expect(appMenu[0]!.label).toBe("File");
    expect(appMenu[0]!.submenu!.map((item) => item.label)).toContain("Restart to update");
    expect(server.asked(artifactName)).toBe(1);

    // Closing a window normally hides it to the tray; after Restart to update it closes.
    const before = fakeEvent();
    fake.windows[0]!.emit("close", before);
    expect(before.defaultPrevented).toBe(true);
    restart!.click!();
    expect(install).toHaveBeenCalledWith(true, true);
    const after = fakeEvent();
    fake.windows[0]!.emit("close", after);
    expect(after.defaultPrevented).toBe(false);
    expect(window).not.toBeNull();
  });
});
