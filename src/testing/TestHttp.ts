import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import * as HttpClient from "@effect/platform/HttpClient";
import * as HttpServer from "@effect/platform/HttpServer";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Layer from "effect/Layer";
import * as Option from "effect/Option";
import * as ParseResult from "effect/ParseResult";
import * as Schema from "effect/Schema";
import type { StrataApp } from "../app/StrataApp.js";
import { NodeServer } from "../server/internal/FastPath.js";
import { type ServeOptions, serve } from "../server/StrataServer.js";

/** Options of {@link serveTest}: the server's, and how the test client treats redirects. @since 0.1.0 @category testing */
export interface ServeTestOptions extends ServeOptions {
  /**
   * Whether the test `HttpClient` follows redirects. Off by default: a 302 comes back as is,
   * with its `Location` and `Set-Cookie` readable, which is what login tests look at. A
   * request may still choose with `FetchHttpClient.RequestInit`'s `redirect`.
   */
  readonly followRedirects?: boolean;
}

/**
 * Serves routes on a free loopback port for a test and provides an `HttpClient` whose
 * relative URLs go to it (redirects not followed unless `followRedirects: true`). Use it with
 * `@effect/vitest`'s `layer(...)` or `Effect.provide`.
 *
 * @example
 * import { HttpClient } from "@effect/platform";
 * import { expect, layer } from "@effect/vitest";
 * import { Effect } from "effect";
 * import { StrataApp } from "effect-strata";
 * import { serveTest } from "effect-strata/testing";
 *
 * declare class AppModule {} // the app's root module
 *
 * layer(serveTest(StrataApp.layer(AppModule)))("users", (it) => {
 *   it.effect("finds a user", () =>
 *     Effect.gen(function* () {
 *       const response = yield* HttpClient.get("/users/1");
 *       expect(response.status).toBe(200);
 *     }),
 *   );
 * });
 *
 * @since 0.1.0
 * @category testing
 */
export const serveTest = <A, E, R>(
  routes: Layer.Layer<A, E, R>,
  options: ServeTestOptions = {},
) => {
  const { followRedirects = false, ...serveOptions } = options;
  return serve(routes, serveOptions).pipe(
    Layer.provideMerge(
      followRedirects ? testServer : Layer.provideMerge(manualRedirects, testServer),
    ),
  );
};

/** Strata's server on a free loopback port, and an `HttpClient` aimed at it. */
const testServer = Layer.provideMerge(
  HttpServer.layerTestClient,
  Layer.merge(NodeServer.layer({ port: 0, host: "127.0.0.1" }), FetchHttpClient.layer),
);

/** The client in context, sending `redirect: "manual"` unless a request chose otherwise. */
const manualRedirects = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(HttpClient.HttpClient, (client) =>
    HttpClient.transformResponse(client, (response) =>
      Effect.flatMap(Effect.serviceOption(FetchHttpClient.RequestInit), (init) =>
        Effect.provideService(response, FetchHttpClient.RequestInit, {
          redirect: "manual",
          ...Option.getOrUndefined(init),
        }),
      ),
    ),
  ),
);

/** A response read whole, for assertions. @since 0.1.0 @category testing */
export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON (`undefined` when empty or not JSON). */
  readonly body: unknown;
  /**
   * The body decoded with `schema` (from JSON), e.g. `response.json(User).name`. Throws an
   * error naming the status, each mismatch and the start of the body when it is not JSON or
   * does not match.
   */
  json<A, I>(schema: Schema.Schema<A, I>): A;
}

/** Options of {@link request}. @since 0.1.0 @category testing */
export interface TestRequestInit {
  readonly headers?: Record<string, string>;
  /** A string or bytes is sent as is; anything else as JSON. */
  readonly body?: unknown;
}

/**
 * Sends one real HTTP request to a listening app and reads the whole response.
 *
 * @example
 * declare const app: StrataApp; // e.g. testingModule.createStrataApp()
 *
 * await app.listen(0);
 * const response = await request(app, "GET", "/users/1");
 *
 * @since 0.1.0
 * @category testing
 */
export const request = async (
  app: StrataApp,
  method: string,
  path: string,
  init: TestRequestInit = {},
): Promise<TestResponse> => {
  const headers = new Headers(init.headers);
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (typeof init.body === "string") body = init.body;
  else if (init.body instanceof Uint8Array) body = new Uint8Array(init.body);
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const response = await fetch(`${app.getUrl()}${path}`, {
    method,
    headers,
    body,
    redirect: "manual",
  });
  const text = await response.text();
  const parsed = parseJson(text);
  const { status } = response;
  return {
    status,
    headers: response.headers,
    text,
    body: Option.getOrUndefined(parsed),
    json: (schema) => decodeBody(schema, status, text, parsed),
  };
};

/** The text parsed as JSON; `None` when empty or not JSON. */
const parseJson = (text: string): Option.Option<unknown> => {
  if (text === "") return Option.none();
  try {
    return Option.some(JSON.parse(text));
  } catch {
    return Option.none();
  }
};

/** The most of a body an error quotes. */
const QUOTED_BODY = 500;

const decodeBody = <A, I>(
  schema: Schema.Schema<A, I>,
  status: number,
  text: string,
  parsed: Option.Option<unknown>,
): A => {
  const quoted = text === "" ? "(empty)" : JSON.stringify(text.slice(0, QUOTED_BODY));
  if (Option.isNone(parsed)) {
    throw new Error(`The response body (status ${status}) is not JSON: ${quoted}`);
  }
  const decoded = Schema.decodeUnknownEither(schema, { errors: "all" })(parsed.value);
  if (Either.isLeft(decoded)) {
    throw new Error(
      `The response body (status ${status}) does not match the schema:\n${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}\nBody: ${quoted}`,
    );
  }
  return decoded.right;
};
