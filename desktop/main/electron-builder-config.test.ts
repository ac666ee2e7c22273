/**
 * electron-builder.yml as electron-builder reads and validates it (its own loader and JSON
 * schema, app-builder-lib/scheme.json), and the parts updates depend on.
 */
import { fileURLToPath } from "node:url";
// What electron-builder itself runs (app-builder-lib comes with electron-builder).
import { getConfig, validateConfiguration } from "app-builder-lib/out/util/config/config.js";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** Only read when electron-builder runs with DEBUG. */
const quietLogger = { isEnabled: false, add: () => {} } as unknown as Parameters<
  typeof validateConfiguration
>[1];

describe("electron-builder.yml", () => {
  it("passes electron-builder's schema", async () => {
    const config = await getConfig(root, "electron-builder.yml", null);
    await expect(validateConfiguration(config, quietLogger)).resolves.toBeUndefined();
  });

  it("builds every target with the generic update feed", async () => {
    const config = await getConfig(root, "electron-builder.yml", null);
    expect(config.publish).toEqual({
      provider: "generic",
      url: expect.stringMatching(/^https:\/\//),
      channel: "latest",
    });
    // macOS updates from the zip; the dmg is for the first install.
    expect(config.mac?.target).toEqual(["dmg", "zip"]);
    expect(config.win?.target).toBe("nsis");
    expect(config.linux?.target).toEqual(["AppImage", "deb"]);
  });

  it("refuses what the schema does not know", async () => {
    const config = await getConfig(root, "electron-builder.yml", null);
    await expect(
      validateConfiguration({ ...config, zip: {} } as typeof config, quietLogger),
    ).rejects.toThrow(/unknown property 'zip'/);
  });
});
