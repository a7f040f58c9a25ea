// Strata's Effect face: the same HttpLayerRouter routes as effect-platform, served by StrataServer,
// answering JSON with Strata's `jsonResponse` (stock servers use `HttpServerResponse.unsafeJson`).
// effect / @effect/* are the copy Strata resolves (bench/package.json links the root's),
// imported module by module as before (not through the `effect` barrel).

import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as NodeRuntime from "@effect/platform-node/NodeRuntime";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { jsonResponse } from "effect-strata";
import { StrataServer } from "effect-strata/effect";
import { makeApp } from "./lib/effect-routes.js";

const { routes, UsersServiceLive } = makeApp({
  Context,
  Effect,
  Layer,
  HttpLayerRouter,
  json: (body, status) => jsonResponse(body, { status }),
});
const port = Number(process.env.PORT);

Layer.launch(
  StrataServer.serve(routes).pipe(
    Layer.provide(UsersServiceLive),
    Layer.provide(StrataServer.layerNode({ port, host: "127.0.0.1" })),
  ),
).pipe(NodeRuntime.runMain);
