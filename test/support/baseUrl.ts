import * as HttpServer from "@effect/platform/HttpServer";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import type * as Scope from "effect/Scope";

/** Builds `served` (an app on a server listening on 127.0.0.1) and gives its base URL. */
export const baseUrlOf = <E, R>(
  served: Layer.Layer<HttpServer.HttpServer, E, R>,
): Effect.Effect<string, E, R | Scope.Scope> =>
  Effect.map(Layer.build(served), (context) => {
    const { address } = Context.get(context, HttpServer.HttpServer);
    return address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : "";
  });
