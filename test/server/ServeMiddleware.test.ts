import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { StrataServer } from "../../src/effect/index.js";
import { ConflictError, UnauthorizedError } from "../../src/index.js";
import { baseUrlOf } from "../support/baseUrl.js";

const routes = Layer.mergeAll(
  HttpLayerRouter.add("GET", "/ok", HttpServerResponse.unsafeJson({ ok: true })),
  HttpLayerRouter.add("GET", "/conflict", Effect.fail(new ConflictError())),
);

/** Tags every response, lets a request through only with `x-key: secret`, and counts requests. */
const makeMiddleware = (seen: Array<string>): HttpMiddleware.HttpMiddleware =>
  ((app: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, unknown>) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest;
      seen.push(request.url);
      if (request.headers["x-key"] !== "secret")
        return yield* new UnauthorizedError("Key required");
      const response = yield* app;
      return HttpServerResponse.setHeader(response, "x-middleware", "yes");
    })) as HttpMiddleware.HttpMiddleware;

const serveOn = (options: StrataServer.ServeOptions) =>
  baseUrlOf(
    StrataServer.serve(routes, options).pipe(
      Layer.provideMerge(StrataServer.layerNode({ port: 0, host: "127.0.0.1" })),
    ),
  );

const get = (url: string, key?: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { headers: key === undefined ? {} : { "x-key": key } });
    return {
      status: response.status,
      header: response.headers.get("x-middleware"),
      body: await response.json(),
    };
  });

describe.each([
  ["fast path", false],
  ["stock dispatch (tracing on)", true],
])("StrataServer.serve middleware, %s", (_, tracing) => {
  it.scopedLive("runs around successful responses", () =>
    Effect.gen(function* () {
      const seen: Array<string> = [];
      const base = yield* serveOn({ middleware: makeMiddleware(seen), tracing });
      expect(yield* get(`${base}/ok`, "secret")).toEqual({
        status: 200,
        header: "yes",
        body: { ok: true },
      });
      expect(seen).toEqual(["/ok"]);
    }),
  );

  it.scopedLive("sees error responses already in the standard shape", () =>
    Effect.gen(function* () {
      const base = yield* serveOn({ middleware: makeMiddleware([]), tracing });
      expect(yield* get(`${base}/conflict`, "secret")).toEqual({
        status: 409,
        header: "yes",
        body: { statusCode: 409, message: "Conflict" },
      });
    }),
  );

  it.scopedLive("sees unmatched routes, answered 404", () =>
    Effect.gen(function* () {
      const seen: Array<string> = [];
      const base = yield* serveOn({ middleware: makeMiddleware(seen), tracing });
      expect(yield* get(`${base}/missing`, "secret")).toEqual({
        status: 404,
        header: "yes",
        body: { statusCode: 404, message: "Not Found" },
      });
      expect(seen).toEqual(["/missing"]);
    }),
  );

  it.scopedLive("answers its own failures in the standard shape", () =>
    Effect.gen(function* () {
      const base = yield* serveOn({ middleware: makeMiddleware([]), tracing });
      expect(yield* get(`${base}/ok`)).toEqual({
        status: 401,
        header: null,
        body: { statusCode: 401, message: "Key required" },
      });
    }),
  );
});
