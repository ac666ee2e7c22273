// Brotli and gzip copies of the built web app's text files, made once at build time so that
// the server never compresses a static file per request (server/middlewares/web-app.ts picks
// the copy by Accept-Encoding). Beside each file: name.br and name.gz.
import { readdirSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import compressibleExtensions from "../../shared/precompressed-extensions.json" with {
  type: "json",
};

/**
 * Text formats worth compressing, one list for the build and the server
 * (server/middlewares/web-app.ts); images and fonts (png, woff2) are compressed already.
 */
export const COMPRESSIBLE = new Set(compressibleExtensions);
/** Below this a compressed answer saves less than its own overhead and a round of headers. */
export const MIN_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/**
 * Writes name.br (quality 11: the best ratio; build time is the place to pay for it) and
 * name.gz (level 9) beside every compressible file of at least MIN_BYTES under `dir`, and
 * beside every HTML page. A copy that would not be smaller than the original is not
 * written: the server then sends the original. Returns what was written, for the log.
 */
export async function precompress(dir) {
  // HTML pages whatever their size: one is fetched on every visit (no-cache), and the
  // server's handling is then the same for every page.
  const files = filesUnder(dir).filter(
    (file) =>
      COMPRESSIBLE.has(path.extname(file)) &&
      (path.extname(file) === ".html" || statSync(file).size >= MIN_BYTES),
  );
  let raw = 0;
  let brBytes = 0;
  let gzBytes = 0;
  await Promise.all(
    files.map(async (file) => {
      const content = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzip(content, { level: 9 }),
      ]);
      raw += content.length;
      if (br.length < content.length) {
        await writeFile(`${file}.br`, br);
        brBytes += br.length;
      }
      if (gz.length < content.length) {
        await writeFile(`${file}.gz`, gz);
        gzBytes += gz.length;
      }
    }),
  );
  return { files: files.length, raw, br: brBytes, gz: gzBytes };
}
