import * as HttpServer from "@effect/platform/HttpServer";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as ExecutionStrategy from "effect/ExecutionStrategy";
import * as Exit from "effect/Exit";
import * as Scope from "effect/Scope";
import { NodeServer } from "../server/internal/FastPath.js";
import { serveApp } from "../server/ServeApp.js";
import { mountContext } from "./MountApp.js";
import type { AppParts, PreparedApp } from "./PrepareApp.js";
import type { StrataAppOptions } from "./StrataAppOptions.js";

/** Where `listen` opens its port: the app's prepared first stage, its options and parts. */
export interface ListenTarget {
  readonly port: number;
  readonly host: string | undefined;
  readonly prepared: PreparedApp;
  readonly options: StrataAppOptions;
  readonly parts: AppParts;
}

/**
 * The second stage of a prepared app on a node server listening on `port`:
 * `serve(app).pipe(Layer.provideMerge(layerNode(...)))` run as Effects (the Layers would cost
 * ~7 ms of CPU at startup). The server's own scope is forked from `scope`, the app's: a listen
 * that fails half-way closes what it opened (the port included) at once; a listening server is
 * released with the app.
 */
export const listenOnPort = (
  scope: Scope.Scope,
  { port, host, prepared, options, parts }: ListenTarget,
): Effect.Effect<HttpServer.HttpServer, unknown> => {
  const launch = Effect.flatMap(
    NodeServer.make({
      port,
      host,
      shutdownTimeout: options.shutdown?.timeout,
      forceCloseConnections: options.forceCloseConnections,
      allocationSitePretenuring: options.allocationSitePretenuring,
    }),
    (server) =>
      serveApp(mountContext(prepared, options, parts), {
        routerConfig: options.routerConfig,
      }).pipe(Effect.provideService(HttpServer.HttpServer, server), Effect.as(server)),
  );
  return Effect.gen(function* () {
    const serving = yield* Scope.fork(scope, ExecutionStrategy.sequential);
    return yield* Effect.onError(Scope.extend(launch, serving), (cause) =>
      Scope.close(serving, Exit.failCause(cause)),
    );
  });
};

/**
 * What a failed listen rejects with: the port's own error (EADDRINUSE, EADDRNOTAVAIL...) with
 * its code, as NestJS rejects, else the failure itself.
 */
export const listenFailure = (cause: Cause.Cause<unknown>): unknown => {
  const error = Cause.squash(cause);
  const inner = (error as { readonly _tag?: unknown; readonly cause?: unknown }).cause;
  if ((error as { readonly _tag?: unknown })._tag === "ServeError" && inner instanceof Error) {
    return inner;
  }
  return error;
};
