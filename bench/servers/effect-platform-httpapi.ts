// An @effect/platform HttpApi on the stock HttpLayerRouter and @effect/platform-node's
// NodeHttpServer, defaults (request logger disabled so the console is not flooded; tracing left
// on, as by default). `TRACER=off` turns the per-request span off
// (`HttpMiddleware.withTracerDisabledWhen`), as a performance-minded user would: the row
// effect-platform-httpapi-notracer. Its pair is strata-httpapi: the same HttpApi served by
// StrataServer.
import { createServer } from "node:http";
import * as HttpApi from "@effect/platform/HttpApi";
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder";
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint";
import * as HttpApiGroup from "@effect/platform/HttpApiGroup";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer";
import * as NodeRuntime from "@effect/platform-node/NodeRuntime";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import * as Schema from "effect/Schema";
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
});

const served = HttpLayerRouter.serve(routes, { disableLogger: true, disableListenLog: true });

(process.env.TRACER === "off"
  ? served.pipe(HttpMiddleware.withTracerDisabledWhen(() => true))
  : served
).pipe(
  Layer.provide(UsersServiceLive),
  Layer.provide(
    NodeHttpServer.layer(createServer, { port: Number(process.env.PORT), host: "127.0.0.1" }),
  ),
  Layer.launch,
  NodeRuntime.runMain,
);
