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

export function createSystemBrowser() {
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

  /** Opens `url` and follows redirects to the page where the browser stops. */
  async function open(url: string): Promise<BrowserPage> {
    let current = new URL(url);
    for (let hops = 0; hops < 20; hops++) {
      visited.push(current.href);
      const jar = jarOf(current.host);
      const headers: Record<string, string> = {};
      if (jar.size) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
      const response = await fetch(current, { redirect: "manual", headers });
      keepCookies(current.host, response);
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        current = new URL(location, current);
        continue;
      }
      return { url: current.href, status: response.status, body: await response.text() };
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
