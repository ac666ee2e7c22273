/**
 * A stand-in for the user's browser in main-process tests: real HTTP, following redirects
 * one by one (fetch with redirect "manual") and keeping each server's cookies, as a browser
 * would across the app's server, Google (oauth2-mock-server) and the app's loopback listener.
 * Cookies are kept per host and port: every test server is on 127.0.0.1.
 */
export interface BrowserPage {
  url: string;
  status: number;
  body: string;
}

/**
 * The action of the POST form whose button reads `label` (pages as the server writes them:
 * one button per form), or null.
 */
function formWithButton(body: string, label: string): string | null {
  for (const form of body.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const [, attributes = "", inside = ""] = form;
    if (!/method="post"/i.test(attributes)) continue;
    const buttons = [...inside.matchAll(/<button\b[^>]*>([\s\S]*?)<\/button>/gi)];
    if (!buttons.some(([, text]) => text?.trim() === label)) continue;
    return /action="([^"]*)"/i.exec(attributes)?.[1] ?? "";
  }
  return null;
}

export interface SystemBrowserOptions {
  /** A button the "user" presses whenever a page has a form with it ("Continue"). */
  press?: string;
}

export function createSystemBrowser(options: SystemBrowserOptions = {}) {
  const cookies = new Map<string, Map<string, string>>();
  /** Every URL requested, in order. */
  const visited: string[] = [];

  const jarOf = (host: string) => {
    let jar = cookies.get(host);
    if (!jar) {
      jar = new Map();
      cookies.set(host, jar);
    }
    return jar;
  };

  function keepCookies(host: string, response: Response) {
    const jar = jarOf(host);
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const separator = pair.indexOf("=");
      if (separator < 1) continue;
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0/i.test(line);
      if (value === "" || expired) jar.delete(name);
      else jar.set(name, value);
    }
  }

  /**
   * Opens `url` and follows redirects to the page where the browser stops; with `press`, a
   * form with that button is submitted as a browser would (POST, its cookies, the page's
   * Origin) and the browser goes on from its answer.
   */
  async function open(url: string): Promise<BrowserPage> {
    let current = new URL(url);
    let method = "GET";
    let origin: string | undefined;
    for (let hops = 0; hops < 20; hops++) {
      visited.push(method === "GET" ? current.href : `${method} ${current.href}`);
      const jar = jarOf(current.host);
      const headers: Record<string, string> = {};
      if (jar.size) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
      if (origin) {
        headers.origin = origin;
        headers["content-type"] = "application/x-www-form-urlencoded";
      }
      const response = await fetch(current, {
        method,
        redirect: "manual",
        headers,
        ...(method === "POST" ? { body: "" } : {}),
      });
      keepCookies(current.host, response);
      method = "GET";
      origin = undefined;
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        current = new URL(location, current);
        continue;
      }
      const body = await response.text();
      const action = options.press ? formWithButton(body, options.press) : null;
      if (action !== null) {
        method = "POST";
        origin = current.origin;
        current = new URL(action, current);
        continue;
      }
      return { url: current.href, status: response.status, body };
    }
    throw new Error(`too many redirects from ${url}`);
  }

  return {
    open,
    visited,
    /** The cookies the browser holds for a host ("127.0.0.1:1234"). */
    cookiesFor: (host: string) => new Map(jarOf(host)),
  };
}
