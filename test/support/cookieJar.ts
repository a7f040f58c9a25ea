/**
 * A browser's cookies for one test server, over fetch: what `Set-Cookie` headers set is sent
 * back (`Max-Age=0` deletes), and every `Set-Cookie` seen is kept for assertions. Expiry is
 * deliberately not applied otherwise: a server must refuse an expired session itself, whatever
 * the browser sends (SECURITY.md 27).
 */

/** One response read whole. */
export interface JarResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: unknown;
  /** The `Set-Cookie` headers of this response. */
  readonly setCookies: ReadonlyArray<string>;
}

/** A cookie jar and a `fetch` through it. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  /** Every `Set-Cookie` header received, in order. */
  readonly received: Array<string> = [];

  constructor(private readonly baseUrl: string) {}

  /** The value of cookie `name`, if the jar holds it. */
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Puts a cookie in the jar by hand (to copy, tamper with or forge one). */
  set(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  /** Forgets cookie `name`. */
  delete(name: string): void {
    this.cookies.delete(name);
  }

  /** A request to `path` with the jar's cookies; the response's cookies are kept. */
  async fetch(
    method: string,
    path: string,
    init: { readonly headers?: Record<string, string>; readonly body?: string } = {},
  ): Promise<JarResponse> {
    const headers = new Headers(init.headers);
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    if (cookie !== "") headers.set("cookie", cookie);
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: init.body,
      redirect: "manual",
    });
    const setCookies = response.headers.getSetCookie();
    for (const header of setCookies) {
      this.received.push(header);
      const [pair, ...attributes] = header.split(";").map((part) => part.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const expired = attributes.some((attribute) => /^max-age=0$/i.test(attribute));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, headers: response.headers, text, body, setCookies };
  }
}
