/**
 * The updater with electron-updater's real DebUpdater against a static update server on
 * 127.0.0.1: the check and the download really go over HTTP, through the fake Electron's
 * `net` (desktop/test/fake-net.ts). Installing is intercepted at quitAndInstall.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DebUpdater } from "electron-updater";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { provideElectronModule } from "../test/electron-module";
import { createFakeElectron, type FakeElectron } from "../test/fake-electron";
import {
  artifact,
  artifactName,
  channelFile,
  latestYml,
  sha512,
  startUpdateServer as startServer,
  type UpdateServer,
} from "../test/update-server";
import { createTray } from "./tray";
import { createUpdater, SIX_HOURS, type UpdateEngine } from "./updater";

const devUpdateConfig = fileURLToPath(new URL("../../build/dev-app-update.yml", import.meta.url));

const servers: UpdateServer[] = [];
async function startUpdateServer(files: Record<string, string | Buffer>) {
  const server = await startServer(files);
  servers.push(server);
  return server;
}

let fake: FakeElectron;
let restoreElectron: () => void;
let cacheDir: string;
const stops: (() => void)[] = [];

beforeEach(() => {
  // electron-updater keeps downloads under the user's cache folder ($XDG_CACHE_HOME on Linux).
  cacheDir = mkdtempSync(path.join(tmpdir(), "clientdesk-update-cache-"));
  vi.stubEnv("XDG_CACHE_HOME", cacheDir);
  fake = createFakeElectron();
  fake.app.version = "1.0.0";
  restoreElectron = provideElectronModule(fake);
});

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  vi.useRealTimers();
  restoreElectron();
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function startUpdates(feedUrl: string | undefined, options: { isPackaged?: boolean } = {}) {
  const isPackaged = options.isPackaged ?? false;
  fake.app.isPackaged = isPackaged;
  const engine = new DebUpdater();
  // Never run dpkg here: what counts is that the app asks for the install.
  const installs = vi.spyOn(engine, "quitAndInstall").mockImplementation(() => {});
  const checks = vi.spyOn(engine, "checkForUpdates");
  const feeds = vi.spyOn(engine, "setFeedURL");
  const createEngine = vi.fn((): UpdateEngine => engine);
  const tray = createTray({
    Tray: fake.Tray,
    Menu: fake.Menu,
    nativeImage: fake.nativeImage,
    setBadgeCount: () => true,
    iconPath: "/icon.png",
    productName: "ClientDesk",
    showWindow: () => {},
    quit: () => {},
  });
  const logs: string[] = [];
  const quitsToInstall = vi.fn();
  const updater = createUpdater({
    feedUrl,
    isPackaged,
    updateConfigPath: devUpdateConfig,
    createEngine,
    Notification: fake.Notification,
    productName: "ClientDesk",
    showRestartToUpdate: (install) => tray.showRestartToUpdate(install),
    willQuitToInstall: quitsToInstall,
    log: (message) => logs.push(message),
  });
  const menu = () =>
    (fake.trays[0]!.menu as { template: { label?: string; click?: () => void }[] }).template;
  return {
    engine,
    updater,
    installs,
    quitsToInstall,
    checks,
    feeds,
    createEngine,
    logs,
    log: () => logs.join("\n"),
    menuLabels: () => menu().map((item) => item.label ?? "---"),
    clickMenu: (label: string) => menu().find((item) => item.label === label)!.click!(),
    start: () => stops.push(updater.start()),
  };
}

describe("updates from a generic server", () => {
  it("downloads a newer version in the background, verifies it and offers Restart to update", async () => {
    const server = await startUpdateServer({
      [channelFile]: latestYml("1.0.1"),
      [artifactName]: artifact,
    });
    const updates = startUpdates(server.url);
    expect(updates.updater.enabled).toBe(true);
    expect(updates.menuLabels()).toEqual(["Open ClientDesk", "---", "Quit"]);
    updates.start();

    await expect.poll(() => fake.notifications.length).toBe(1);
    const notification = fake.notifications[0]!;
    expect(notification.options).toEqual({
      title: "Update ready: ClientDesk 1.0.1",
      body: "Restart to update",
    });
    expect(notification.shown).toBe(true);
    expect(updates.menuLabels()).toEqual(["Open ClientDesk", "---", "Restart to update", "Quit"]);
    // Asked over HTTP through Electron's net, and the verified download kept for the install.
    expect(server.asked(channelFile)).toBe(1);
    expect(server.asked(artifactName)).toBe(1);
    expect(fake.net.requests).toContain(`${server.url}/${artifactName}`);
    const downloaded = path.join(cacheDir, "clientdesk-desktop-updater", "pending", artifactName);
    expect(readFileSync(downloaded).equals(artifact)).toBe(true);
    expect(updates.installs).not.toHaveBeenCalled();

    updates.clickMenu("Restart to update");
    expect(updates.installs).toHaveBeenCalledTimes(1);
    // Silent, then the new version starts; the windows may close for good first.
    expect(updates.installs).toHaveBeenLastCalledWith(true, true);
    expect(updates.quitsToInstall.mock.invocationCallOrder[0]).toBeLessThan(
      updates.installs.mock.invocationCallOrder[0]!,
    );
    notification.emit("click");
    expect(updates.installs).toHaveBeenCalledTimes(2);
  });

  it("refuses a download whose sha512 is wrong: logged, no Restart to update", async () => {
    const server = await startUpdateServer({
      [channelFile]: latestYml("1.0.1", sha512(Buffer.from("another file"))),
      [artifactName]: artifact,
    });
    const updates = startUpdates(server.url);
    updates.start();

    await expect.poll(updates.log).toMatch(/update failed: .*sha512 checksum mismatch/);
    expect(server.asked(artifactName)).toBe(1);
    expect(
      existsSync(path.join(cacheDir, "clientdesk-desktop-updater", "pending", artifactName)),
    ).toBe(false);
    expect(fake.notifications).toHaveLength(0);
    expect(updates.menuLabels()).not.toContain("Restart to update");
  });

  it("downloads nothing when the server has the same or an older version", async () => {
    for (const version of ["1.0.0", "0.9.0"]) {
      const server = await startUpdateServer({
        [channelFile]: latestYml(version),
        [artifactName]: artifact,
      });
      const updates = startUpdates(server.url);
      updates.start();
      await expect
        .poll(updates.log)
        .toContain(`Update for version 1.0.0 is not available (latest version: ${version}`);
      expect(server.asked(channelFile)).toBe(1);
      expect(server.asked(artifactName)).toBe(0);
      expect(fake.notifications).toHaveLength(0);
      expect(updates.menuLabels()).not.toContain("Restart to update");
    }
  });

  it("checks at start and every 6 hours until stopped", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const server = await startUpdateServer({ [channelFile]: latestYml("1.0.0") });
    const updates = startUpdates(server.url);
    const stop = updates.updater.start();

    await expect.poll(() => server.asked(channelFile)).toBe(1);
    await expect.poll(updates.log).toContain("is not available");
    vi.advanceTimersByTime(SIX_HOURS - 1);
    expect(updates.checks).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(updates.checks).toHaveBeenCalledTimes(2);
    await expect.poll(() => server.asked(channelFile)).toBe(2);

    stop();
    vi.advanceTimersByTime(2 * SIX_HOURS);
    expect(updates.checks).toHaveBeenCalledTimes(2);
  });

  it("logs an unreachable server and goes on checking", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const server = await startUpdateServer({});
    await server.close();
    const updates = startUpdates(server.url);
    updates.start();

    // electron-updater retries a refused connection three times (about 3 s) before failing.
    await expect.poll(updates.log, { timeout: 15_000 }).toMatch(/update failed: .*ECONNREFUSED/);
    expect(fake.notifications).toHaveLength(0);
    expect(fake.errorBoxes).toHaveLength(0);
    vi.advanceTimersByTime(SIX_HOURS);
    expect(updates.checks).toHaveBeenCalledTimes(2);
  });
});

describe("which feed, if any", () => {
  it("ignores CLIENTDESK_UPDATE_URL in a packaged app: only its app-update.yml counts", async () => {
    const server = await startUpdateServer({ [channelFile]: latestYml("1.0.1") });
    const updates = startUpdates("https://updates.example.com/clientdesk", { isPackaged: true });
    expect(updates.updater.enabled).toBe(true);
    expect(updates.feeds).not.toHaveBeenCalled();
    expect(updates.engine.forceDevUpdateConfig).toBe(false);
    expect(updates.log()).toBe(
      "updates: CLIENTDESK_UPDATE_URL is ignored: a packaged app updates from app-update.yml",
    );
    expect(server.requests).toEqual([]);
  });

  it("sets the generic feed from CLIENTDESK_UPDATE_URL when unpackaged", () => {
    // Not started: this address is not to be asked.
    const updates = startUpdates("https://updates.example.com/clientdesk/linux/x64");
    expect(updates.updater.enabled).toBe(true);
    expect(updates.feeds).toHaveBeenCalledWith({
      provider: "generic",
      url: "https://updates.example.com/clientdesk/linux/x64",
    });
    expect(updates.engine.autoDownload).toBe(true);
    expect(updates.engine.autoInstallOnAppQuit).toBe(true);
    expect(updates.engine.allowDowngrade).toBe(false);
    // Unpackaged: electron-updater's development mode, on purpose.
    expect(updates.engine.forceDevUpdateConfig).toBe(true);
  });

  it("takes only https, or http on this machine, when unpackaged", () => {
    const updates = startUpdates("http://updates.example.com/feed");
    expect(updates.updater.enabled).toBe(false);
    expect(updates.log()).toBe(
      "updates off: CLIENTDESK_UPDATE_URL must use https:// (or http:// on this machine)",
    );
  });

  it("makes no network call in an unpackaged app without an address", () => {
    const updates = startUpdates(undefined);
    expect(updates.updater.enabled).toBe(false);
    updates.start();
    expect(updates.createEngine).not.toHaveBeenCalled();
    expect(fake.net.requests).toEqual([]);
    expect(updates.log()).toBe("updates off: not packaged and no CLIENTDESK_UPDATE_URL");
  });
});
