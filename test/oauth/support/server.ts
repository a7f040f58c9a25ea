// The built-in routes served over real HTTP on loopback (the Effect face), with the live
// providers behind them (their network intercepted by ./network.ts) and every log line kept.
import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpClientRequest from "@effect/platform/HttpClientRequest";
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Logger from "effect/Logger";
import * as Option from "effect/Option";
import * as Redacted from "effect/Redacted";
import {
  OAuth,
  type OAuthConfig,
  OAuthRoutes,
  type OAuthTransaction,
  TransactionSealer,
  TransactionStore,
} from "../../../src/oauth/index.js";
import type { OAuthRoutesOptions } from "../../../src/oauth/OAuthRoutes.js";
import { serveTest } from "../../../src/testing/index.js";
import { credentials } from "../fixtures.js";

/** The sealing key of the test servers. */
export const KEY = "test-sealing-key-0123456789-abcdefghijklmnop";

/** Every provider configured, a short timeout so hanging providers answer fast. */
export const testConfig = (overrides: Partial<OAuthConfig> = {}): OAuthConfig => ({
  providers: {
    google: credentials("google"),
    microsoft: credentials("microsoft"),
    github: credentials("github"),
    facebook: credentials("facebook"),
    twitter: credentials("twitter"),
  },
  timeout: "400 millis",
  ...overrides,
});

/** Log lines, formatted with their annotations and cause, as an operator would see them. */
export const logs: Array<string> = [];

const captureLogs = Logger.replace(
  Logger.defaultLogger,
  Logger.make(({ logLevel, message, annotations, cause }) => {
    const text = Array.isArray(message) ? message.map(String).join(" ") : String(message);
    const fields = JSON.stringify(Object.fromEntries(annotations));
    const causeText = Cause.isEmpty(cause) ? "" : ` ${Cause.pretty(cause)}`;
    logs.push(`${logLevel.label} ${text} ${fields}${causeText}`);
  }),
);

/** The routes with live providers, a sealed-cookie (or memory) store, logs captured. */
export const oauthServer = <R = never>(
  options: {
    readonly routes?: OAuthRoutesOptions<R>;
    readonly config?: OAuthConfig;
    readonly store?: "cookie" | "memory";
    readonly extra?: Layer.Layer<R>;
  } = {},
) => {
  const store =
    options.store === "memory"
      ? TransactionStore.layerMemory
      : Layer.provide(TransactionStore.layerCookie, TransactionSealer.layer(Redacted.make(KEY)));
  const app = OAuthRoutes.layer({
    allowedRedirectOrigins: ["https://app.example.com"],
    ...options.routes,
  }).pipe(
    Layer.provide(Layer.mergeAll(OAuth.layer(options.config ?? testConfig()), store)),
    Layer.provide(FetchHttpClient.layer),
    Layer.provide((options.extra ?? Layer.empty) as Layer.Layer<R>),
  );
  return serveTest(app).pipe(Layer.provide(captureLogs));
};

/** A response read whole. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Every Set-Cookie line, joined by newlines. */
  readonly setCookie: string | undefined;
  readonly setCookies: ReadonlyArray<string>;
  readonly location: string | undefined;
  readonly text: string;
  readonly json: unknown;
}

/** Every answer of the file, for the secret scan of SECURITY.md 17. */
export const answers: Array<Answer> = [];

/**
 * The raw Set-Cookie lines of a response, as sent: read from the fetch `Response` underneath
 * (the platform's `headers` record keeps only one of them).
 */
export const rawSetCookies = (response: HttpClientResponse.HttpClientResponse): Array<string> => {
  let current: unknown = response;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const source = (current as { readonly source?: unknown }).source;
    if (source instanceof Response) return source.headers.getSetCookie();
    current = (current as { readonly original?: unknown }).original;
  }
  throw new Error("No fetch Response under this HttpClientResponse");
};

/** GETs `path` on the test server, without following redirects. */
export const get = (path: string, headers: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient;
    // The test client is fetch-based: redirects are looked at, never followed.
    const response = yield* client
      .execute(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)))
      .pipe(Effect.provideService(FetchHttpClient.RequestInit, { redirect: "manual" }));
    const text = yield* response.text;
    let json: unknown;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const setCookies = rawSetCookies(response);
    const answer: Answer = {
      status: response.status,
      headers: response.headers,
      setCookie: setCookies.length === 0 ? undefined : setCookies.join("\n"),
      setCookies,
      location: response.headers.location,
      text,
      json,
    };
    answers.push(answer);
    return answer;
  }).pipe(Effect.orDie);

/** The `name=value` part of a Set-Cookie header (what the browser sends back). */
export const cookieOf = (answer: Answer): string => {
  const line = answer.setCookies.find((c) => c.includes("strata_oauth="));
  if (line === undefined) throw new Error("no transaction cookie");
  return line.split(";")[0];
};

/** Starts a flow: GET /auth/:provider; the provider URL and the transaction cookie. */
export const start = (provider: string, query = "", headers: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const answer = yield* get(`/auth/${provider}${query}`, headers);
    if (answer.status !== 302 || answer.location === undefined) {
      throw new Error(`start ${provider}: ${answer.status} ${answer.text}`);
    }
    const url = new URL(answer.location);
    return {
      answer,
      url,
      state: url.searchParams.get("state") ?? "",
      cookie: cookieOf(answer),
    };
  });

/** The callback request of a started flow. */
export const callback = (
  provider: string,
  query: string,
  cookie?: string,
  headers: Record<string, string> = {},
) =>
  get(
    `/auth/${provider}/callback${query}`,
    cookie === undefined ? headers : { ...headers, cookie },
  );

/** Opens a transaction cookie with the test key (what only the server can do). */
export const unseal = (cookie: string): Effect.Effect<Option.Option<OAuthTransaction>> =>
  Effect.gen(function* () {
    const sealer = yield* TransactionSealer;
    return yield* sealer.unseal(decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1)));
  }).pipe(Effect.provide(TransactionSealer.layer(Redacted.make(KEY))), Effect.orDie);

/** Seals a transaction with `key` (the test key by default), as a cookie value. */
export const seal = (transaction: OAuthTransaction, key: string = KEY) =>
  Effect.gen(function* () {
    const sealer = yield* TransactionSealer;
    return yield* sealer.seal(transaction);
  }).pipe(Effect.provide(TransactionSealer.layer(Redacted.make(key))), Effect.orDie);
