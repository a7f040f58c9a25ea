import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { StrataServer } from "../../src/effect/index.js";
import { jsonResponse } from "../../src/index.js";
import { baseUrlOf } from "../support/baseUrl.js";

const cycle: Record<string, unknown> = {};
cycle.self = cycle;

const routes = Layer.mergeAll(
  HttpLayerRouter.add(
    "GET",
    "/plain",
    Effect.sync(() => jsonResponse({ hello: "wörld ✓" })),
  ),
  HttpLayerRouter.add(
    "GET",
    "/created",
    Effect.sync(() => jsonResponse([1, 2], { status: 201, headers: { "x-kind": "list" } })),
  ),
  HttpLayerRouter.add(
    "GET",
    "/latin1-header",
    Effect.sync(() => jsonResponse({ ok: true }, { headers: { "x-name": "Zoë" } })),
  ),
  HttpLayerRouter.add(
    "GET",
    "/undefined",
    Effect.sync(() => jsonResponse(undefined)),
  ),
  HttpLayerRouter.add(
    "GET",
    "/cycle",
    Effect.sync(() => jsonResponse(cycle)),
  ),
);

const servers = [
  ["Strata's server", StrataServer.layerNode({ port: 0, host: "127.0.0.1" })],
  ["platform-node's server", StrataServer.layerNodePlatform({ port: 0, host: "127.0.0.1" })],
] as const;

describe.each(servers)("jsonResponse on %s", (_, server) => {
  const baseUrl = baseUrlOf(StrataServer.serve(routes).pipe(Layer.provideMerge(server)));
  const get = (url: string) =>
    Effect.promise(async () => {
      const response = await fetch(url);
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { response, text: new TextDecoder().decode(bytes), length: bytes.length };
    });

  it.scopedLive("answers the value as UTF-8 JSON with its exact length", () =>
    Effect.gen(function* () {
      const { response, text, length } = yield* get(`${yield* baseUrl}/plain`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(response.headers.get("content-length")).toBe(String(length));
      expect(JSON.parse(text)).toEqual({ hello: "wörld ✓" });
    }),
  );

  it.scopedLive("takes a status and headers", () =>
    Effect.gen(function* () {
      const { response, text } = yield* get(`${yield* baseUrl}/created`);
      expect(response.status).toBe(201);
      expect(response.headers.get("x-kind")).toBe("list");
      expect(JSON.parse(text)).toEqual([1, 2]);
    }),
  );

  it.scopedLive("keeps a Latin-1 header value intact next to a UTF-8 body", () =>
    Effect.gen(function* () {
      const { response, text } = yield* get(`${yield* baseUrl}/latin1-header`);
      expect(Buffer.from(response.headers.get("x-name") ?? "", "latin1").toString("latin1")).toBe(
        "Zoë",
      );
      expect(JSON.parse(text)).toEqual({ ok: true });
    }),
  );

  it.scopedLive("answers `null` for undefined, and 500 without details for a cycle", () =>
    Effect.gen(function* () {
      const base = yield* baseUrl;
      expect((yield* get(`${base}/undefined`)).text).toBe("null");
      const failed = yield* get(`${base}/cycle`);
      expect(failed.response.status).toBe(500);
      expect(JSON.parse(failed.text)).toEqual({
        statusCode: 500,
        message: "Internal Server Error",
      });
      expect(failed.text).not.toMatch(/circular|cycle/i);
    }),
  );
});
