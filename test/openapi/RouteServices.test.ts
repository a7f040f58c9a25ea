// The services of a StrataHttpApi route on Strata's fast path (src/server/internal/RouteServices.ts):
// the server puts the group's and the API's services into the request's context itself, where
// any other server runs a handler that adds them. One HttpApi served both ways over real HTTP:
// a service of the group's Layer and one of the API's reach the handler; a Tag given to both is
// the API's; a Tag the app already provides outside what is served is the app's, even where the
// API's Layer gives its own (the server leaves that entry out), as with the stock merges; the
// request's own entries (its HttpServerRequest, its scope) are the handler's.
import { createServer } from "node:http";
import * as HttpApi from "@effect/platform/HttpApi";
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint";
import * as HttpApiGroup from "@effect/platform/HttpApiGroup";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import type * as HttpServer from "@effect/platform/HttpServer";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer";
import { describe, expect, it } from "@effect/vitest";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Schema from "effect/Schema";
import { StrataHttpApi, StrataServer } from "../../src/effect/index.js";
import { baseUrlOf } from "../support/baseUrl.js";

/** Given to the group's Layer only. */
class GroupOnly extends Context.Tag("test/RouteServices/GroupOnly")<GroupOnly, string>() {}
/** Given to the API's Layer only. */
class ApiOnly extends Context.Tag("test/RouteServices/ApiOnly")<ApiOnly, string>() {}
/** Given to the group's Layer and to the API's. */
class GroupAndApi extends Context.Tag("test/RouteServices/GroupAndApi")<GroupAndApi, string>() {}
/** Given to the group's Layer and to the app, outside what is served. */
class GroupAndApp extends Context.Tag("test/RouteServices/GroupAndApp")<GroupAndApp, string>() {}
/** Given to the API's Layer and to the app, outside what is served. */
class ApiAndApp extends Context.Tag("test/RouteServices/ApiAndApp")<ApiAndApp, string>() {}

const Services = Schema.Struct({
  group: Schema.String,
  api: Schema.String,
  groupAndApi: Schema.String,
  groupAndApp: Schema.String,
  apiAndApp: Schema.String,
});

const Api = HttpApi.make("routeServices").add(
  HttpApiGroup.make("probe")
    .add(HttpApiEndpoint.get("services", "/services").addSuccess(Services))
    .add(
      HttpApiEndpoint.get("request", "/request").addSuccess(
        Schema.Struct({ probe: Schema.String, url: Schema.String }),
      ),
    )
    .add(HttpApiEndpoint.get("scoped", "/scoped/:id").setPath(Schema.Struct({ id: Schema.String })))
    .add(HttpApiEndpoint.get("closed", "/closed").addSuccess(Schema.Array(Schema.String))),
);

/** The group's handlers, and the ids of the requests whose scope has closed. */
const probeGroup = (closed: Array<string>) =>
  StrataHttpApi.group(Api, "probe", (handlers) =>
    Effect.succeed(
      handlers
        .handle("services", () =>
          Effect.map(
            Effect.all([GroupOnly, ApiOnly, GroupAndApi, GroupAndApp, ApiAndApp]),
            ([group, api, groupAndApi, groupAndApp, apiAndApp]) => ({
              group,
              api,
              groupAndApi,
              groupAndApp,
              apiAndApp,
            }),
          ),
        )
        .handle("request", () =>
          Effect.map(HttpServerRequest.HttpServerRequest, (request) => ({
            probe: request.headers["x-probe"] ?? "none",
            url: request.url,
          })),
        )
        // The Scope in context is the request's (the group's and the API's Layers had one too).
        .handle("scoped", ({ path }) =>
          Effect.addFinalizer(() => Effect.sync(() => closed.push(path.id))),
        )
        .handle("closed", () => Effect.sync(() => [...closed])),
    ),
  ).pipe(
    Layer.provide(
      Layer.mergeAll(
        Layer.succeed(GroupOnly, "group"),
        Layer.succeed(GroupAndApi, "group"),
        Layer.succeed(GroupAndApp, "group"),
      ),
    ),
  );

/** The API, its group provided, and services of its own (`addHttpApi(...).pipe(Layer.provide)`). */
const routesOf = (closed: Array<string>) =>
  StrataHttpApi.addHttpApi(Api).pipe(
    Layer.provide(probeGroup(closed)),
    Layer.provide(
      Layer.mergeAll(
        Layer.succeed(ApiOnly, "api"),
        Layer.succeed(GroupAndApi, "api"),
        Layer.succeed(ApiAndApp, "api"),
      ),
    ),
    Layer.provide(NodeHttpServer.layerContext),
  );

/** What the app provides outside the served routes: the runtime the server runs them in. */
const app = Layer.mergeAll(Layer.succeed(GroupAndApp, "app"), Layer.succeed(ApiAndApp, "app"));

const host = "127.0.0.1";

/** Strata's server: `StrataServer.serve` on `layerNode`, the fast path. */
const onStrata = (closed: Array<string>) =>
  StrataServer.serve(routesOf(closed)).pipe(
    Layer.provide(app),
    Layer.provideMerge(StrataServer.layerNode({ port: 0, host })),
  );

/** The stock server: `HttpLayerRouter.serve` on `NodeHttpServer`. */
const onStock = (closed: Array<string>) =>
  HttpLayerRouter.serve(routesOf(closed), { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provide(app),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host })),
  );

/** Every request of the test on the server `served` builds, over real HTTP, in order. */
const answersOn = <E>(served: (closed: Array<string>) => Layer.Layer<HttpServer.HttpServer, E>) =>
  Effect.scoped(
    Effect.flatMap(baseUrlOf(served([])), (url) =>
      Effect.promise(async () => {
        const get = async (path: string, probe?: string) => {
          const response = await fetch(`${url}${path}`, {
            headers: probe === undefined ? {} : { "x-probe": probe },
          });
          const text = await response.text();
          return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
        };
        const services = await get("/services");
        // Two requests at once: each handler sees its own request.
        const [first, second] = await Promise.all([
          get("/request?n=1", "first"),
          get("/request?n=2", "second"),
        ]);
        const none = await get("/request");
        const scoped = [await get("/scoped/a"), await get("/scoped/b")];
        return { services, first, second, none, scoped, closed: await get("/closed") };
      }),
    ),
  );

describe("StrataHttpApi route services, on Strata's fast path as on the stock server", () => {
  it.live(
    "the group's and the API's services reach the handler, the API's win over the group's, the app's over both, the request's own entries over all",
    () =>
      Effect.gen(function* () {
        const stock = yield* answersOn(onStock);
        const strata = yield* answersOn(onStrata);
        // The stock merges: the API's services over the group's, the request's context (the
        // app's services in it) over both.
        expect(stock.services).toEqual({
          status: 200,
          body: {
            group: "group",
            api: "api",
            groupAndApi: "api",
            groupAndApp: "app",
            apiAndApp: "app",
          },
        });
        expect(strata.services).toEqual(stock.services);
        // The request's own HttpServerRequest, each request its own.
        expect(strata.first).toEqual({
          status: 200,
          body: { probe: "first", url: "/request?n=1" },
        });
        expect(strata.second).toEqual({
          status: 200,
          body: { probe: "second", url: "/request?n=2" },
        });
        expect(strata.none).toEqual({ status: 200, body: { probe: "none", url: "/request" } });
        // Its own Scope, closed once it is answered (not a Layer's, closed at shutdown).
        expect(strata.scoped).toEqual([
          { status: 204, body: undefined },
          { status: 204, body: undefined },
        ]);
        expect(strata.closed).toEqual({ status: 200, body: ["a", "b"] });
        expect(strata).toEqual(stock);
      }),
  );
});
