import * as HttpServer from "@effect/platform/HttpServer";
import * as NodeRuntime from "@effect/platform-node/NodeRuntime";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { StrataServer } from "effect-strata/effect";
import { AppMiddleware, AppRoutes, Services } from "./app.js";

const port = Number(process.env.PORT ?? 3000);

const LogAddress = Layer.effectDiscard(
  HttpServer.addressFormattedWith((address) =>
    Effect.sync(() =>
      console.log(
        `effect-api listening on ${address} (try /v1/books, /v2/books; writes need "Authorization: Bearer editor-key")`,
      ),
    ),
  ),
);

StrataServer.serve(AppRoutes, { middleware: AppMiddleware }).pipe(
  Layer.merge(LogAddress),
  Layer.provide(Services),
  Layer.provide(StrataServer.layerNode({ port })),
  Layer.launch,
  NodeRuntime.runMain,
);
