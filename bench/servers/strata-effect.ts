// Strata's Effect face: the same HttpLayerRouter routes as effect-platform, served by StrataServer,
// answering JSON with Strata's `jsonResponse` (stock servers use `HttpServerResponse.unsafeJson`).
// effect / @effect/* are resolved the way Strata's dist resolves them (one shared copy).

import type * as NodeRuntimeNS from "@effect/platform-node/NodeRuntime";
import type * as EffectNS from "effect/Effect";
import type * as LayerNS from "effect/Layer";
import { type EffectModules, makeApp } from "./lib/effect-routes.js";
import { importAsStrata, loadStrata } from "./lib/strata.js";

const { StrataServer, jsonResponse } = await loadStrata();

const Effect = await importAsStrata<typeof EffectNS>("effect/Effect");
const modules: EffectModules = {
  Context: await importAsStrata("effect/Context"),
  Effect,
  Layer: await importAsStrata("effect/Layer"),
  HttpLayerRouter: await importAsStrata("@effect/platform/HttpLayerRouter"),
  json: (body, status) => jsonResponse(body, { status }),
};
const Layer = modules.Layer as typeof LayerNS;
const NodeRuntime = await importAsStrata<typeof NodeRuntimeNS>("@effect/platform-node/NodeRuntime");

const { routes, UsersServiceLive } = makeApp(modules);
const port = Number(process.env.PORT);

Layer.launch(
  StrataServer.serve(routes).pipe(
    Layer.provide(UsersServiceLive),
    Layer.provide(StrataServer.layerNode({ port, host: "127.0.0.1" })),
  ) as LayerNS.Layer<never>,
).pipe(NodeRuntime.runMain);
