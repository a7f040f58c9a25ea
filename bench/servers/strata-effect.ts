// Strata's Effect face: the same HttpLayerRouter routes as effect-platform, served by StrataServer,
// answering JSON with Strata's `jsonResponse` (stock servers use `HttpServerResponse.unsafeJson`).
// effect / @effect/* are resolved the way Strata's dist resolves them (one shared copy).

import type * as HttpLayerRouterNS from "@effect/platform/HttpLayerRouter";
import type * as NodeRuntimeNS from "@effect/platform-node/NodeRuntime";
import type * as ContextNS from "effect/Context";
import type * as EffectNS from "effect/Effect";
import type * as LayerNS from "effect/Layer";
import { makeApp } from "./lib/effect-routes.js";
import { loadStrata, STRATA_EFFECT } from "./lib/strata.js";

const [strata, strataEffect, Effect, Context, Layer, HttpLayerRouter, NodeRuntime] =
  (await loadStrata(
    STRATA_EFFECT,
    "effect/Effect",
    "effect/Context",
    "effect/Layer",
    "@effect/platform/HttpLayerRouter",
    "@effect/platform-node/NodeRuntime",
  )) as [
    // biome-ignore lint/suspicious/noExplicitAny: Strata's types are not available at bench build time.
    any,
    // biome-ignore lint/suspicious/noExplicitAny: Strata's types are not available at bench build time.
    any,
    typeof EffectNS,
    typeof ContextNS,
    typeof LayerNS,
    typeof HttpLayerRouterNS,
    typeof NodeRuntimeNS,
  ];
const { jsonResponse } = strata;
const { StrataServer } = strataEffect;

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
  ) as LayerNS.Layer<never>,
).pipe(NodeRuntime.runMain);
