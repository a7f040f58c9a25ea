// The HttpApi of effect-platform-httpapi, served by StrataServer on Strata's node server (its
// fast path: the route is found before the request's fiber starts). effect / @effect/* are the
// copy Strata resolves (bench/package.json links the root's),
// imported module by module as before (not through the barrels).

import * as HttpApi from "@effect/platform/HttpApi";
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder";
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint";
import * as HttpApiGroup from "@effect/platform/HttpApiGroup";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer";
import * as NodeRuntime from "@effect/platform-node/NodeRuntime";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Schema from "effect/Schema";
import { StrataHttpApi, StrataServer } from "effect-strata/effect";
import { makeHttpApiApp } from "./lib/httpapi-routes.js";

const { routes, UsersServiceLive } = makeHttpApiApp({
  Context,
  Effect,
  Layer,
  Schema,
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpLayerRouter,
  NodeHttpServer,
  // STRATA_HTTPAPI=stock keeps the platform's builders (the same routes, one context swap per
  // request for the group and one for the API): the cost StrataHttpApi removes.
  ...(process.env.STRATA_HTTPAPI === "stock" ? {} : { builders: StrataHttpApi }),
});
const port = Number(process.env.PORT);

Layer.launch(
  StrataServer.serve(routes).pipe(
    Layer.provide(UsersServiceLive),
    Layer.provide(StrataServer.layerNode({ port, host: "127.0.0.1" })),
  ),
).pipe(NodeRuntime.runMain);
