// The HttpApi of effect-platform-httpapi, served by StrataServer on Strata's node server (its
// fast path: the route is found before the request's fiber starts). effect / @effect/* are
// resolved the way Strata's dist resolves them (one shared copy).

import type * as HttpApiNS from "@effect/platform/HttpApi";
import type * as HttpApiBuilderNS from "@effect/platform/HttpApiBuilder";
import type * as HttpApiEndpointNS from "@effect/platform/HttpApiEndpoint";
import type * as HttpApiGroupNS from "@effect/platform/HttpApiGroup";
import type * as HttpLayerRouterNS from "@effect/platform/HttpLayerRouter";
import type * as NodeHttpServerNS from "@effect/platform-node/NodeHttpServer";
import type * as NodeRuntimeNS from "@effect/platform-node/NodeRuntime";
import type * as ContextNS from "effect/Context";
import type * as EffectNS from "effect/Effect";
import type * as LayerNS from "effect/Layer";
import type * as SchemaNS from "effect/Schema";
import { makeHttpApiApp } from "./lib/httpapi-routes.js";
import { loadStrata, STRATA_EFFECT } from "./lib/strata.js";

const [
  ,
  strataEffect,
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
  NodeRuntime,
] = (await loadStrata(
  STRATA_EFFECT,
  "effect/Context",
  "effect/Effect",
  "effect/Layer",
  "effect/Schema",
  "@effect/platform/HttpApi",
  "@effect/platform/HttpApiBuilder",
  "@effect/platform/HttpApiEndpoint",
  "@effect/platform/HttpApiGroup",
  "@effect/platform/HttpLayerRouter",
  "@effect/platform-node/NodeHttpServer",
  "@effect/platform-node/NodeRuntime",
)) as [
  unknown,
  // biome-ignore lint/suspicious/noExplicitAny: Strata's types are not available at bench build time.
  any,
  typeof ContextNS,
  typeof EffectNS,
  typeof LayerNS,
  typeof SchemaNS,
  typeof HttpApiNS,
  typeof HttpApiBuilderNS,
  typeof HttpApiEndpointNS,
  typeof HttpApiGroupNS,
  typeof HttpLayerRouterNS,
  typeof NodeHttpServerNS,
  typeof NodeRuntimeNS,
];
const { StrataServer, StrataHttpApi } = strataEffect;

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
  ) as LayerNS.Layer<never>,
).pipe(NodeRuntime.runMain);
