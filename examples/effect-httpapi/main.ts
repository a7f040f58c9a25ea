import * as HttpServer from "@effect/platform/HttpServer";
import * as NodeRuntime from "@effect/platform-node/NodeRuntime";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { StrataServer } from "effect-strata/effect";
import { AppRoutes, Books } from "./app.js";

const port = Number(process.env.PORT ?? 3000);

const LogAddress = Layer.effectDiscard(
  HttpServer.addressFormattedWith((address) =>
    Effect.sync(() =>
      console.log(`effect-httpapi listening on ${address} (try /books, /openapi.json and /docs)`),
    ),
  ),
);

StrataServer.serve(AppRoutes).pipe(
  Layer.merge(LogAddress),
  Layer.provide(Books.layer),
  Layer.provide(StrataServer.layerNode({ port })),
  Layer.launch,
  NodeRuntime.runMain,
);
