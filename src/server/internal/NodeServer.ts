import type { IncomingMessage, ServerResponse } from "node:http";
import type * as HttpApp from "@effect/platform/HttpApp";
import * as HttpServer from "@effect/platform/HttpServer";
import type * as HttpServerError from "@effect/platform/HttpServerError";
import * as Effect from "effect/Effect";
import * as Layer from "effect/Layer";
import type * as Scope from "effect/Scope";
import { fastAppOf } from "./FastApp.js";
import { fastDispatch } from "./FastDispatch.js";
import { genericDispatch } from "./GenericDispatch.js";
import { gracefulServer } from "./GracefulDrain.js";
import type { RequestListener } from "./InFlight.js";
import { addressOf, listen } from "./NodeListen.js";
import { disablePretenuring } from "./Pretenuring.js";
import { requestFiberClass } from "./RequestFibers.js";
import { makeRequestScopes } from "./RequestScope.js";

/**
 * What the server tells of its stop: marked shutting down when the stop begins, run once the
 * drain is over. The lifecycle's `ShutdownManager` is one.
 *
 * @since 0.1.0
 * @category server
 */
export interface ShutdownHooks {
  /** `true` when the stop begins, `false` when the server (re)starts listening. */
  setShuttingDown(shuttingDown: boolean): void;
  /** The shutdown handlers, run once in-flight requests have drained. */
  run(signal: string | undefined): Effect.Effect<void>;
}

/** Where the server listens, and how long it lets requests finish when it stops. @since 0.1.0 @category server */
export interface NodeServerOptions {
  readonly port: number;
  readonly host?: string;
  /**
   * Milliseconds in-flight requests get to finish when the server stops (default 10 000);
   * those still running then are interrupted and their connections closed.
   */
  readonly shutdownTimeout?: number;
  /** Marked shutting down when the stop begins; its handlers run once the drain is over. */
  readonly shutdown?: ShutdownHooks;
  /**
   * NestJS's `forceCloseConnections`: when the server stops, every connection is closed at once
   * (in-flight requests, server-sent event streams included, are interrupted) instead of
   * draining. Default `false`.
   */
  readonly forceCloseConnections?: boolean;
  /**
   * Keep V8's allocation-site pretenuring (default `false`: the server turns it off for the
   * process when it starts, unless node's own flags say otherwise). See the performance guide,
   * "Garbage collection under load".
   */
  readonly allocationSitePretenuring?: boolean;
}

/** The default deadline for in-flight requests at shutdown: 10 000 ms. @since 0.1.0 @category server */
const DEFAULT_SHUTDOWN_TIMEOUT = 10_000;

/**
 * Strata's node HTTP server, an implementation of `@effect/platform`'s `HttpServer`. Apps served
 * by `StrataServer.serve` take the fast path; any other `HttpApp` runs through the platform's
 * `HttpApp.toHandled`, exactly as on `NodeHttpServer`.
 *
 * @since 0.1.0
 * @category server
 */
export const make = (
  options: NodeServerOptions,
): Effect.Effect<HttpServer.HttpServer, HttpServerError.ServeError, Scope.Scope> =>
  Effect.gen(function* () {
    if (options.allocationSitePretenuring !== true) disablePretenuring();
    const stop = gracefulServer(
      options.shutdownTimeout ?? DEFAULT_SHUTDOWN_TIMEOUT,
      options.forceCloseConnections === true,
    );
    const { server, inFlight } = stop;
    const shutdown = options.shutdown;
    // Run once, by whichever finalizer comes first (serve's, or this one if serve never ran).
    const drain = yield* Effect.cached(
      shutdown === undefined
        ? stop.drain
        : Effect.sync(() => shutdown.setShuttingDown(true)).pipe(
            Effect.zipRight(stop.drain),
            Effect.zipRight(shutdown.run(undefined)),
          ),
    );
    yield* Effect.addFinalizer(() => drain);
    // Requests arriving between the port opening and `serve` (the app's routes are added after
    // the server is built) wait for it instead of getting no answer at all.
    const early: Array<readonly [IncomingMessage, ServerResponse]> = [];
    const hold: RequestListener = (req, res) => {
      early.push([req, res]);
    };
    server.on("request", hold);
    yield* listen(server, options.port, options.host);
    shutdown?.setShuttingDown(false);
    // Effect's private shapes the fast path relies on, checked once (public fallbacks otherwise).
    const newScope = yield* makeRequestScopes;
    const fiberClass = yield* requestFiberClass;
    return HttpServer.make({
      address: addressOf(server, options.port),
      serve: (app, middleware) =>
        Effect.gen(function* () {
          const runtime = yield* Effect.runtime<never>();
          const fast = fastAppOf(app);
          const handler =
            fast !== undefined && middleware === undefined && fast.routes.eligible()
              ? fastDispatch(runtime, fast, newScope, inFlight, fiberClass)
              : genericDispatch(
                  runtime,
                  app as HttpApp.Default<unknown, never>,
                  middleware,
                  inFlight,
                  fiberClass,
                );
          server.off("request", hold);
          server.on("request", handler);
          // Those whose client has already gone are dropped: nobody is left to answer.
          for (const [req, res] of early.splice(0)) if (!req.socket.destroyed) handler(req, res);
          // Draining first: requests on connections still open are served until they end.
          yield* Effect.addFinalizer(() =>
            Effect.zipRight(
              drain,
              Effect.sync(() => server.off("request", handler)),
            ),
          );
        }),
    });
  });

/**
 * {@link make} as a Layer.
 *
 * @since 0.1.0
 * @category server
 */
export const layer = (
  options: NodeServerOptions,
): Layer.Layer<HttpServer.HttpServer, HttpServerError.ServeError> =>
  Layer.scoped(HttpServer.HttpServer, make(options));
