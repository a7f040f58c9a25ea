// Same as effect-platform, with the per-request tracing span disabled.
import { createServer } from "node:http";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer";
import * as NodeRuntime from "@effect/platform-node/NodeRuntime";
import * as Layer from "effect/Layer";
import { makeApp } from "./lib/effect-routes.js";
import { modules } from "./lib/effect-stock.js";

const { routes, UsersServiceLive } = makeApp(modules);

HttpLayerRouter.serve(routes, { disableLogger: true, disableListenLog: true }).pipe(
  HttpMiddleware.withTracerDisabledWhen(() => true),
  Layer.provide(UsersServiceLive),
  Layer.provide(
    NodeHttpServer.layer(createServer, { port: Number(process.env.PORT), host: "127.0.0.1" }),
  ),
  Layer.launch,
  NodeRuntime.runMain,
);
