#!/usr/bin/env node
// Draws the app icons (web/public/icons/*.png) from the logo of web/public/favicon.svg, for
// the web app manifests, the iOS home screen and notifications. Run it after changing the
// logo; the PNGs are committed (no network, only sharp):
//   node scripts/make-icons.mjs
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = path.join(root, "web/public/icons");
const BRAND = "#0093ff";

/** The speech bubble with its tick, on a 32-unit grid (as favicon.svg draws it). */
const GLYPH = `<path d="M8 10.5A2.5 2.5 0 0 1 10.5 8h11A2.5 2.5 0 0 1 24 10.5v7a2.5 2.5 0 0 1-2.5 2.5H15l-4.2 3.4a.5.5 0 0 1-.8-.4V20A2 2 0 0 1 8 18z" fill="#fff"/>
  <path d="m12.5 14 2.3 2.3 4.7-4.6" fill="none" stroke="${BRAND}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>`;

/** Rounded tile with the glyph: the "any" icon. */
const rounded = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${BRAND}"/>${GLYPH}</svg>`;

/** Full-bleed square, glyph shrunk into the central safe zone (80%): the "maskable" icon. */
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BRAND}"/><g transform="translate(16 16) scale(0.8) translate(-16 -15.7)">${GLYPH}</g></svg>`;

/** iOS rounds the corners itself: a full square. */
const apple = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BRAND}"/>${GLYPH}</svg>`;

/** Android's status-bar badge: only the alpha counts, so the bubble in white on nothing. */
const badge = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="6 6 20 20"><path d="M8 10.5A2.5 2.5 0 0 1 10.5 8h11A2.5 2.5 0 0 1 24 10.5v7a2.5 2.5 0 0 1-2.5 2.5H15l-4.2 3.4a.5.5 0 0 1-.8-.4V20A2 2 0 0 1 8 18z" fill="#fff"/></svg>`;

const ICONS = [
  ["icon-192.png", rounded, 192],
  ["icon-512.png", rounded, 512],
  ["maskable-192.png", maskable, 192],
  ["maskable-512.png", maskable, 512],
  ["apple-touch-icon.png", apple, 180],
  ["badge-96.png", badge, 96],
];

mkdirSync(out, { recursive: true });
for (const [name, svg, size] of ICONS) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(out, name));
  console.log(`web/public/icons/${name} (${size}x${size})`);
}
