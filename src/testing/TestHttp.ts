import * as FetchHttpClient from "@effect/platform/FetchHttpClient";
import * as HttpServer from "@effect/platform/HttpServer";
import * as Layer from "effect/Layer";
import type { StrataApp } from "../core/StrataApp.js";
import { type ServeOptions, serve } from "../core/StrataServer.js";
import * as NodeServer from "../core/server/NodeServer.js";

/**
 * Serves routes on a free loopback port for a test and provides an `HttpClient` whose
 * relative URLs go to it. Use it with `@effect/vitest`'s `layer(...)` or `Effect.provide`.
 *
 * @example
 * layer(StrataTesting.serveTest(StrataApp.layer(AppModule)))("users", (it) => {
 *   it.effect("finds a user", () => Effect.gen(function* () {
 *     const response = yield* HttpClient.get("/users/1");
 *     expect(response.status).toBe(200);
 *   }));
 * });
 *
 * @since 0.1.0
 * @category testing
 */
export const serveTest = <A, E, R>(routes: Layer.Layer<A, E, R>, options?: ServeOptions) =>
  serve(routes, options).pipe(Layer.provideMerge(testServer));

/** Strata's server on a free loopback port, and an `HttpClient` aimed at it. */
const testServer = Layer.provideMerge(
  HttpServer.layerTestClient,
  Layer.merge(NodeServer.layer({ port: 0, host: "127.0.0.1" }), FetchHttpClient.layer),
);

/** A response read whole, for assertions. @since 0.1.0 @category testing */
export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON (`undefined` when empty). */
  readonly body: unknown;
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
  let parsed: unknown;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
};
