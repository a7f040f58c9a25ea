import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { describe, expect, it } from "@effect/vitest";
import * as Effect from "effect/Effect";
import * as FastRouter from "../../src/server/internal/FastRouter.js";
import { makeRouter } from "../../src/server/internal/ServeRouter.js";
import { StaticRoutes } from "../../src/server/internal/StaticRoutes.js";

// The fast router finds literal routes by their exact path before it walks the find-my-way tree:
// every lookup must give what the tree alone gives (same route, parameters and query, objects
// without a prototype), for literal spellings and every other one.

const paths = [
  ["GET", "/"],
  ["GET", "/hello"],
  ["POST", "/hello"],
  ["GET", "/hello/world"],
  ["GET", "/users/:id"],
  ["GET", "/users/me"],
  ["GET", "/files/*"],
  ["GET", "/Mixed/Case"],
  ["GET", "/slash/"],
  ["*", "/any"],
] as const;

const targets = [
  "/",
  "/hello",
  "/hello/",
  "/hello?x=1&y=2",
  "/HELLO",
  "/hello/world",
  "/users/me",
  "/users/42",
  "/users/me/",
  "/files/a/b",
  "/Mixed/Case",
  "/mixed/case",
  "/slash/",
  "/slash",
  "/any",
  "/nothing",
];

const methods = ["GET", "POST", "HEAD", "PUT"];

const shapeOf = (found: FastRouter.FoundRoute | undefined) =>
  found === undefined
    ? undefined
    : {
        handler: found.handler,
        params: { ...found.params },
        paramsProto: Object.getPrototypeOf(found.params),
        query: { ...found.searchParams },
        queryProto: Object.getPrototypeOf(found.searchParams),
      };

const lookups = (config: Partial<HttpLayerRouter.FindMyWay.RouterConfig>) =>
  Effect.gen(function* () {
    const router = yield* makeRouter({ routerConfig: config });
    if (!FastRouter.isFastRouter(router)) return yield* Effect.die("expected a fast router");
    const routes = paths.map(([method, path]) =>
      HttpLayerRouter.route(method, path, Effect.succeed(HttpServerResponse.text(path))),
    );
    yield* router.addAll(routes as never);
    const tree = HttpLayerRouter.FindMyWay.make<HttpLayerRouter.Route<unknown, unknown>>({
      ignoreTrailingSlash: true,
      ...config,
      ignoreDuplicateSlashes: false,
    });
    for (const route of routes) {
      if (route.method === "*") tree.all(route.path, route as never);
      else tree.on(route.method, route.path, route as never);
    }
    const fast = router[FastRouter.FastRoutesId];
    for (const method of methods) {
      for (const target of targets) {
        const expected =
          tree.find(method, target) ?? (method === "HEAD" ? tree.find("GET", target) : undefined);
        expect(shapeOf(fast.find(method, target)), `${method} ${target}`).toEqual(
          shapeOf(expected as FastRouter.FoundRoute | undefined),
        );
      }
    }
    // A literal route is found, with fresh parameter and query objects on every lookup.
    const first = fast.find("GET", "/hello");
    const second = fast.find("GET", "/hello");
    expect(first?.handler).toBe(routes[1]);
    expect(first?.params).not.toBe(second?.params);
    expect(first?.searchParams).not.toBe(second?.searchParams);
  });

describe("FastRouter literal routes", () => {
  it.effect("are found as the find-my-way tree finds them", () => lookups({}));
  it.effect("with a case-insensitive router too", () => lookups({ caseSensitive: false }));
  it("find literal paths alone, whatever their length, and pass every other target on", () => {
    const statics = new StaticRoutes();
    const route = (method: string, path: HttpLayerRouter.PathInput) =>
      HttpLayerRouter.route(method as "GET", path, Effect.succeed(HttpServerResponse.text(path)));
    const hello = route("GET", "/hello");
    const long = route("GET", "/a/much/longer/literal/path");
    const root = route("GET", "/");
    for (const r of [hello, route("GET", "/users/:id"), long, root])
      statics.add(r as HttpLayerRouter.Route<unknown, unknown>);
    expect(statics.find("GET", "/hello")?.handler).toBe(hello);
    expect(statics.find("GET", "/a/much/longer/literal/path")?.handler).toBe(long);
    expect(statics.find("GET", "/")?.handler).toBe(root);
    // Same length as a literal path, another length, longer than any, a parameterised route.
    for (const target of ["/hellp", "/hell", "/a/much/longer/literal/path/2", "/users/42", ""])
      expect(statics.find("GET", target), target).toBeUndefined();
    expect(statics.find("POST", "/hello")).toBeUndefined();
  });
});
