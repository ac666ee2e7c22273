import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AppImageUpdater, DebUpdater, MacUpdater, NsisUpdater } from "electron-updater";
import { afterEach, describe, expect, it } from "vitest";
import { provideElectronModule } from "../test/electron-module";
import { createFakeElectron } from "../test/fake-electron";
import { createUpdateEngine, readPackageType, updaterKind } from "./update-engine";

describe("update engine", () => {
  let restore = () => {};
  afterEach(() => restore());

  it("picks the updater for how the app was installed", () => {
    const kind = (platform: NodeJS.Platform, env = {}, packageType: string | null = null) =>
      updaterKind({ platform, env, packageType });
    expect(kind("win32")).toBe("nsis");
    expect(kind("darwin")).toBe("mac");
    expect(kind("linux", { APPIMAGE: "/home/me/ClientDesk-1.0.0.AppImage" })).toBe("appimage");
    expect(kind("linux", {}, "deb")).toBe("deb");
    expect(kind("linux", {}, "rpm")).toBeNull();
    expect(kind("linux")).toBeNull();
    expect(kind("freebsd")).toBeNull();
  });

  it("reads resources/package-type, which electron-builder writes for a .deb", () => {
    const resources = mkdtempSync(path.join(tmpdir(), "clientdesk-resources-"));
    expect(readPackageType(resources)).toBeNull();
    writeFileSync(path.join(resources, "package-type"), "deb\n");
    expect(readPackageType(resources)).toBe("deb");
  });

  it("builds electron-updater's class for it, on Electron's app", () => {
    const fake = createFakeElectron();
    fake.app.version = "2.3.4";
    restore = provideElectronModule(fake);
    const engine = (platform: NodeJS.Platform, env = {}, packageType: string | null = null) =>
      createUpdateEngine({ platform, env, packageType });
    expect(engine("win32")).toBeInstanceOf(NsisUpdater);
    expect(engine("darwin")).toBeInstanceOf(MacUpdater);
    expect(engine("linux", { APPIMAGE: "/tmp/ClientDesk.AppImage" })).toBeInstanceOf(
      AppImageUpdater,
    );
    const deb = engine("linux", {}, "deb");
    expect(deb).toBeInstanceOf(DebUpdater);
    expect((deb as DebUpdater).currentVersion.version).toBe("2.3.4");
    expect(engine("linux")).toBeNull();
  });
});
