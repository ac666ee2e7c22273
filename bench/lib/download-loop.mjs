// A load generator for large responses: autocannon parses bodies in JS and tops out far below
// what a 10MB file needs on loopback (both sides then measure the client). Here each of
// `connections` keep-alive connections GETs `url` again as soon as the body is in; the bytes
// are counted and dropped.
import http from "node:http";

export async function downloadLoop(url, { connections, durationMs, headers = {} }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const deadline = performance.now() + durationMs;
  let bytes = 0;
  let files = 0;
  let failures = 0;
  const getOnce = () =>
    new Promise((resolve) => {
      const request = http.get(url, { agent, headers }, (response) => {
        if (response.statusCode !== 200) failures += 1;
        response.on("data", (chunk) => {
          bytes += chunk.length;
        });
        response.once("end", () => {
          files += 1;
          resolve();
        });
        response.once("error", () => {
          failures += 1;
          resolve();
        });
      });
      request.once("error", () => {
        failures += 1;
        resolve();
      });
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) await getOnce();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  if (failures > 0) throw new Error(`${url}: ${failures} failed of ${files + failures}`);
  return { bytesPerSecond: bytes / seconds, filesPerSecond: files / seconds, files };
}
