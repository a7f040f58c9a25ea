// Stock @effect/platform HttpLayerRouter on @effect/platform-node NodeHttpServer, defaults
// (request logger disabled so the console is not flooded; tracing left on, as by default).
import { createServer } from "node:http";
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer";
import * as NodeRuntime from "@effect/platform-node/NodeRuntime";
import * as Layer from "effect/Layer";
import { makeApp } from "./lib/effect-routes.js";
import { modules } from "./lib/effect-stock.js";

const { routes, UsersServiceLive } = makeApp(modules);

HttpLayerRouter.serve(routes, { disableLogger: true, disableListenLog: true }).pipe(
  Layer.provide(UsersServiceLive),
  Layer.provide(
    NodeHttpServer.layer(createServer, { port: Number(process.env.PORT), host: "127.0.0.1" }),
  ),
  Layer.launch,
  NodeRuntime.runMain,
);
