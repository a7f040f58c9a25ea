// The network boundary for tests of the live (arctic) providers: undici's MockAgent as the
// global dispatcher, which node 20's global `fetch` (used by arctic and by FetchHttpClient)
// goes through. Real connections are refused except to loopback (the test servers).
import { type Dispatcher, getGlobalDispatcher, MockAgent, setGlobalDispatcher } from "undici";
import type { MockInterceptor } from "undici/types/mock-interceptor.js";
import { afterAll, afterEach, beforeAll } from "vitest";

/** One request the mock saw. */
export interface Seen {
  readonly method: string;
  readonly origin: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const bodyText = (body: unknown): string => {
  if (body === undefined || body === null) return "";
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString("utf8");
  return String(body);
};

const headerRecord = (headers: unknown): Record<string, string> => {
  const out: Record<string, string> = {};
  if (headers === undefined || headers === null) return out;
  if (headers instanceof Headers) {
    headers.forEach((v, k) => {
      out[k.toLowerCase()] = v;
    });
    return out;
  }
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2)
      out[String(headers[i]).toLowerCase()] = String(headers[i + 1]);
    return out;
  }
  for (const [k, v] of Object.entries(headers as Record<string, unknown>))
    out[k.toLowerCase()] = String(v);
  return out;
};

/** A reply: status, JSON-able body (or raw text), headers, delay. */
export interface Reply {
  readonly status?: number;
  readonly json?: unknown;
  readonly text?: string;
  readonly headers?: Record<string, string>;
  readonly delayMs?: number;
  /** Fail at the transport level (a refused connection). */
  readonly networkError?: boolean;
}

/** Installs a MockAgent for the test file; every request it answers is recorded in `seen`. */
export const mockNetwork = () => {
  const agent = new MockAgent();
  let previous: Dispatcher | undefined;
  const seen: Array<Seen> = [];
  beforeAll(() => {
    previous = getGlobalDispatcher();
    agent.disableNetConnect();
    agent.enableNetConnect(/^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/);
    setGlobalDispatcher(agent);
  });
  const origins = new Set<string>();
  /** Forgets what was seen and every reply not used yet. */
  const reset = () => {
    seen.length = 0;
    for (const origin of origins) agent.get(origin).cleanMocks();
  };
  afterEach(reset);
  afterAll(async () => {
    if (previous !== undefined) setGlobalDispatcher(previous);
    await agent.close();
  });

  /** Answers `method origin path` (a path string, or a predicate on it) with `reply`. */
  const on = (
    method: string,
    url: string,
    reply: Reply | ((seen: Seen) => Reply),
    options: { readonly times?: number; readonly persist?: boolean } = {},
  ): void => {
    // Matched on the path alone; the query is recorded in `seen` for assertions.
    const { origin, pathname } = new URL(url);
    origins.add(origin);
    const matchPath = (path: string) => path.split("?")[0] === pathname;
    const interceptor = agent.get(origin).intercept({ method, path: matchPath });
    const respond = (opts: MockInterceptor.MockResponseCallbackOptions) => {
      const request: Seen = {
        method: opts.method,
        origin,
        path: opts.path,
        headers: headerRecord(opts.headers),
        body: bodyText(opts.body),
      };
      seen.push(request);
      return typeof reply === "function" ? reply(request) : reply;
    };
    const first = typeof reply === "function" ? undefined : reply;
    if (first?.networkError === true) {
      const scope = interceptor.replyWithError(
        Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
      );
      if (options.persist === true) scope.persist();
      else if (options.times !== undefined) scope.times(options.times);
      return;
    }
    const scope = interceptor.reply((opts) => {
      const r = respond(opts);
      const body = r.text ?? (r.json === undefined ? "" : JSON.stringify(r.json));
      return {
        statusCode: r.status ?? 200,
        data: body,
        responseOptions: {
          headers: {
            ...(r.json === undefined ? {} : { "content-type": "application/json" }),
            ...r.headers,
          },
        },
      };
    });
    if (first?.delayMs !== undefined) scope.delay(first.delayMs);
    if (options.persist === true) scope.persist();
    else if (options.times !== undefined) scope.times(options.times);
  };

  return { agent, seen, on, reset };
};

/** The form fields of a token request body. */
export const form = (seen: Seen): Record<string, string> =>
  Object.fromEntries(new URLSearchParams(seen.body));

/** The `user:password` of a Basic authorization header, if any. */
export const basicCredentials = (seen: Seen): string | undefined => {
  const header = seen.headers.authorization;
  if (header === undefined || !header.startsWith("Basic ")) return undefined;
  return Buffer.from(header.slice(6), "base64").toString("utf8");
};
