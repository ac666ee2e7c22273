import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createAppProtocolHandler, registerAppScheme, resolveRendererFile } from "./protocol";

function rendererRoot() {
  const base = mkdtempSync(path.join(tmpdir(), "clientdesk-renderer-"));
  const root = path.join(base, "renderer");
  mkdirSync(path.join(root, "assets"), { recursive: true });
  writeFileSync(path.join(root, "index.html"), "<!doctype html><title>ClientDesk</title>");
  writeFileSync(path.join(root, "assets", "index-abc.js"), "console.log('app')");
  writeFileSync(path.join(root, "favicon.svg"), "<svg/>");
  // A file beside the renderer root that traversal would reach.
  writeFileSync(path.join(base, "secret.txt"), "TOP SECRET");
  return { base, root };
}

const CSP = "default-src 'none'";

describe("app:// protocol", () => {
  it("registers the scheme as standard and secure, without CORS", () => {
    const registered: unknown[] = [];
    registerAppScheme({ registerSchemesAsPrivileged: (schemes) => registered.push(...schemes) });
    expect(registered).toEqual([
      {
        scheme: "app",
        privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
      },
    ]);
  });

  it("serves files under the renderer root with their type and the CSP", async () => {
    const { root } = rendererRoot();
    const handler = createAppProtocolHandler({ rendererRoot: root, csp: CSP });
    const page = await handler(new Request("app://clientdesk/"));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toBe(CSP);
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await page.text()).toContain("<title>ClientDesk</title>");

    const script = await handler(new Request("app://clientdesk/assets/index-abc.js"));
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).toBe("console.log('app')");

    // The app's own routes get index.html (history API routing).
    const route = await handler(new Request("app://clientdesk/pricing?tier=pro"));
    expect(await route.text()).toContain("<title>ClientDesk</title>");

    const missing = await handler(new Request("app://clientdesk/assets/missing.js"));
    expect(missing.status).toBe(404);
  });

  it("refuses path traversal in every spelling", async () => {
    const { root } = rendererRoot();
    const handler = createAppProtocolHandler({ rendererRoot: root, csp: CSP });
    const attempts = [
      "app://clientdesk/../secret.txt",
      "app://clientdesk/../../etc/passwd",
      "app://clientdesk/%2e%2e/secret.txt",
      "app://clientdesk/..%2fsecret.txt",
      "app://clientdesk/..%2Fsecret.txt",
      "app://clientdesk/assets/..%2f..%2fsecret.txt",
      "app://clientdesk/..%5csecret.txt",
      "app://clientdesk/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
      "app://clientdesk/%2fetc%2fpasswd",
      "app://clientdesk/C:%5cWindows%5cwin.ini",
      "app://clientdesk/index.html%00.js",
    ];
    for (const url of attempts) {
      const answer = await handler(new Request(url));
      const text = await answer.text();
      expect(text, url).not.toContain("TOP SECRET");
      expect(text, url).not.toContain("root:");
      // Either refused outright, or normalized by the URL parser into a path under the root.
      if (answer.status === 200) expect(text, url).toContain("<title>ClientDesk</title>");
    }
    expect((await handler(new Request("app://clientdesk/..%2fsecret.txt"))).status).toBe(403);
    expect((await handler(new Request("app://clientdesk/%2fetc%2fpasswd"))).status).toBe(403);
  });

  it("resolves only paths inside the root", () => {
    const root = "/srv/app/renderer";
    expect(resolveRendererFile(root, "/assets/a.js")).toBe("/srv/app/renderer/assets/a.js");
    expect(resolveRendererFile(root, "/")).toBe("/srv/app/renderer/index.html");
    expect(resolveRendererFile(root, "/../secret.txt")).toBeNull();
    expect(resolveRendererFile(root, "/a/%2e%2e/%2e%2e/secret.txt")).toBeNull();
    expect(resolveRendererFile(root, "/%E0%A4%A")).toBeNull();
  });

  it("answers only its own host, and only GET and HEAD for files", async () => {
    const { root } = rendererRoot();
    const handler = createAppProtocolHandler({ rendererRoot: root, csp: CSP });
    expect((await handler(new Request("app://elsewhere/index.html"))).status).toBe(404);
    expect(
      (await handler(new Request("app://clientdesk/", { method: "POST", body: "x" }))).status,
    ).toBe(405);
  });

  it("forwards app://clientdesk/api/... to the server through main", async () => {
    const { root } = rendererRoot();
    const forwarded: string[] = [];
    const handler = createAppProtocolHandler({
      rendererRoot: root,
      csp: CSP,
      forwardToServer: async (_request, serverPath) => {
        forwarded.push(serverPath);
        return new Response("image");
      },
    });
    const answer = await handler(new Request("app://clientdesk/api/download/x.png?v=1"));
    expect(await answer.text()).toBe("image");
    expect(forwarded).toEqual(["/api/download/x.png?v=1"]);
  });
});
