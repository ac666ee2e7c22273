import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import type { TestAgent, TestResponse } from "./server";

/** A valid PDF of about `size` bytes (padded with a comment). */
export function pdfOfSize(size = 200): Buffer {
  const head = Buffer.from(
    "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n",
  );
  const tail = Buffer.from("\n%%EOF\n");
  const padding = Math.max(0, size - head.length - tail.length - 2);
  return Buffer.concat([head, Buffer.from(`%${"x".repeat(padding)}\n`), tail]);
}

/** A small PNG, e.g. for a profile picture. */
export const smallPng = () =>
  sharp({ create: { width: 32, height: 32, channels: 3, background: "#3366ff" } })
    .png()
    .toBuffer();

/** POST /api/clients/:id/upload with one file, as the web app sends it. */
export function uploadFile(
  agent: TestAgent,
  clientId: string,
  data: Buffer,
  filename = "brief.pdf",
): Promise<TestResponse> {
  const body = new FormData();
  body.append("file", new Blob([new Uint8Array(data)]), filename);
  return agent.request("POST", `/api/clients/${clientId}/upload`, { body });
}

/** POST of one image to an account image endpoint, e.g. /api/user/profile-picture. */
export function uploadImage(agent: TestAgent, urlPath: string, field: string, data: Buffer) {
  const body = new FormData();
  body.append(field, new Blob([new Uint8Array(data)]), "image.png");
  return agent.request("POST", urlPath, { body });
}

/** Every key in a server's storage directory (DATA_DIR/files), sorted. */
export function storedKeys(dataDir: string): string[] {
  const root = path.join(dataDir, "files");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
}

/** Where put() keeps a key. */
export const storedPath = (dataDir: string, key: string) =>
  path.join(dataDir, "files", key.slice(0, 2), key);
