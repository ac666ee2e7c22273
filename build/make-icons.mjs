// Renders build/icon.svg into the PNGs electron-builder and the tray use:
//   node build/make-icons.mjs
// icon.png (1024x1024): electron-builder derives .icns (dmg), .ico (nsis) and the Linux sizes.
// tray.png (32x32, full-bleed tile): the tray icon (main resizes it to 16x16).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const dir = fileURLToPath(new URL(".", import.meta.url));
const svg = readFileSync(`${dir}icon.svg`);
const full = await sharp(svg, { density: 144 }).resize(1024, 1024).png().toBuffer();
await sharp(full).png({ compressionLevel: 9 }).toFile(`${dir}icon.png`);
// The tray has no room for the safe-area margin: crop to the tile itself.
await sharp(full)
  .extract({ left: 100, top: 100, width: 824, height: 824 })
  .resize(32, 32)
  .png()
  .toFile(`${dir}tray.png`);
console.log("build/icon.png and build/tray.png written");
