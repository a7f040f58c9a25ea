import * as HttpServer from "@effect/platform/HttpServer";
import * as NodeRuntime from "@effect/platform-node/NodeRuntime";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import { StrataServer } from "effect-strata/effect";
import { AppRoutes, Users } from "./app.js";

const port = Number(process.env.PORT ?? 3000);

const LogAddress = Layer.effectDiscard(
  HttpServer.addressFormattedWith((address) =>
    Effect.sync(() =>
      console.log(`effect-hello listening on ${address} (try /hello and /users/1)`),
    ),
  ),
);

StrataServer.serve(AppRoutes).pipe(
  Layer.merge(LogAddress),
  Layer.provide(Users.layer),
  Layer.provide(StrataServer.layerNode({ port })),
  Layer.launch,
  NodeRuntime.runMain,
);
