import { type IncomingMessage, Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import * as HttpApp from "@effect/platform/HttpApp";
import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import * as HttpRouter from "@effect/platform/HttpRouter";
import * as HttpServer from "@effect/platform/HttpServer";
import * as HttpServerError from "@effect/platform/HttpServerError";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import type * as Cause from "effect/Cause";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Exit from "effect/Exit";
import * as Fiber from "effect/Fiber";
import * as Layer from "effect/Layer";
import * as Runtime from "effect/Runtime";
import * as Scope from "effect/Scope";
import { causeToResponse, errorResponse } from "../http/ErrorResponse.js";
import { BadRequestError } from "../http/HttpError.js";
import { canonicalTarget } from "../http/RequestTarget.js";
import { type FastApp, fastAppOf } from "./FastApp.js";
import type { FoundRoute } from "./FastRouter.js";
import { entriesOf, mapOf } from "./MapCopies.js";
import { writeNodeResponse } from "./NodeResponseWriter.js";
import { NodeServerRequest } from "./NodeServerRequest.js";
import { disablePretenuring } from "./Pretenuring.js";
import {
  childRuntime,
  type FiberRuntimeClass,
  makeRequestFork,
  requestFiberClass,
  requestFlags,
} from "./RequestFibers.js";
import { closeRequestScope, makeRequestScopes } from "./RequestScope.js";
import { routeServicesOf } from "./RouteServices.js";
import { RunningRequests } from "./RunningRequests.js";

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

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** What the fast path runs for a route: its program, and the services its requests start with. */
interface RouteProgram {
  readonly effect: Effect.Effect<void>;
  readonly services: ReadonlyArray<readonly [string, unknown]>;
}

type RequestFiber = Fiber.RuntimeFiber<unknown, unknown>;

/** The answer to a request target with no single meaning (see `canonicalTarget`), before any route runs. */
const badTarget = errorResponse(new BadRequestError("Malformed request target"));

/**
 * The request for `req` with its target in canonical form, or `undefined` once `res` has been
 * answered 400 for a target with no single meaning (SECURITY.md check 35).
 */
const canonicalRequest = (req: IncomingMessage, res: ServerResponse) => {
  const url = canonicalTarget(req.url ?? "/");
  if (url !== undefined) return new NodeServerRequest(req, res, url);
  writeNodeResponse(res, req.method ?? "GET", badTarget);
  return undefined;
};

/**
 * The requests of one server: those still running on a fiber (those answered synchronously
 * never count), and what the drain needs to know about connections, kept cheap on the hot path.
 */
interface InFlight {
  /** Sees every request before it runs: notes pipelined ones; while draining, refuses keep-alive. */
  readonly arrive: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * Follows a fiber of a request that did not complete synchronously: its own, or the one
   * closing its scope after it was interrupted. The drain waits for both: `onExit` runs when
   * the fiber ends, before the fiber stops counting, so work it starts and tracks is waited for.
   */
  readonly track: (
    res: ServerResponse,
    fiber: RequestFiber,
    onExit?: (exit: Exit.Exit<unknown, unknown>) => void,
  ) => void;
}

/** Any HTTP app, through the platform's own `toHandled` (scope, middleware, error handling). */
const genericHandler = (
  runtime: Runtime.Runtime<never>,
  app: HttpApp.Default<unknown, never>,
  middleware: HttpMiddleware.HttpMiddleware | undefined,
  inFlight: InFlight,
  fiberClass: FiberRuntimeClass | undefined,
): Handler => {
  const handled = HttpApp.toHandled(
    app,
    (request, response) =>
      writeNodeResponse((request as NodeServerRequest).response, request.method, response),
    middleware,
  );
  const fork = makeRequestFork(runtime, runtime.runtimeFlags, fiberClass);
  return (req, res) => {
    inFlight.arrive(req, res);
    const request = canonicalRequest(req, res);
    if (request === undefined) return;
    const fiber = fork(
      runtime.context,
      Effect.provideService(handled, HttpServerRequest.HttpServerRequest, request),
    );
    if (fiber.unsafePoll() === null) inFlight.track(res, fiber);
  };
};

/**
 * The fast path: the route is found before any fiber exists, the request's whole context
 * (request, route, query, scope) is built in one step, and the fiber runs the route's handler,
 * maps failures to responses and writes, usually without leaving the node `request` event.
 */
const fastHandler = (
  runtime: Runtime.Runtime<never>,
  fast: FastApp,
  newScope: () => Scope.CloseableScope,
  inFlight: InFlight,
  fiberClass: FiberRuntimeClass | undefined,
): Handler => {
  const base = entriesOf(runtime.context.unsafeMap);
  const fork = makeRequestFork(
    runtime,
    requestFlags(runtime.runtimeFlags, fast.fiberMetrics),
    fiberClass,
  );
  const programs = new WeakMap<FoundRoute["handler"], RouteProgram>();
  // The request from the fiber's context, the platform's pre-response handlers (their failures
  // answered like the handler's), the write, then the request scope closed (at once when
  // nothing was added to it). An interruption or defect before that closes it from outside
  // (see `run`).
  const respondOn = (fiber: RequestFiber, response: HttpServerResponse.HttpServerResponse) => {
    const context = fiber.currentContext.unsafeMap;
    const request = context.get(HttpServerRequest.HttpServerRequest.key) as NodeServerRequest;
    const scope = context.get(Scope.Scope.key) as Scope.CloseableScope;
    const handlers = fiber.getFiberRef(HttpApp.currentPreResponseHandlers);
    const write = (final: HttpServerResponse.HttpServerResponse) =>
      writeNodeResponse(request.response, request.method, final);
    const written =
      handlers._tag === "None"
        ? write(response)
        : Effect.flatMap(
            Effect.catchAllCause(
              // Suspended: a handler that throws is answered like one that fails.
              Effect.suspend(() => handlers.value(request, response)),
              causeToResponse,
            ),
            write,
          );
    return written === Effect.void
      ? closeRequestScope(scope, Exit.void)
      : Effect.zipRight(
          written,
          Effect.suspend(() => closeRequestScope(scope, Exit.void)),
        );
  };
  // Run as the handler's continuation, on the fiber running it: no step of its own. Effect 3
  // sets that fiber as the current one around every run of its loop (`Fiber.getCurrentFiber`);
  // the `withFiberRuntime` step is only there should a later version stop doing so.
  const respond = (response: HttpServerResponse.HttpServerResponse): Effect.Effect<void> => {
    const fiber = Fiber.getCurrentFiber();
    return fiber._tag === "Some"
      ? respondOn(fiber.value, response)
      : Effect.withFiberRuntime((current) => respondOn(current, response));
  };
  const recover = (cause: Cause.Cause<unknown>) => Effect.flatMap(fast.recover(cause), respond);
  // One step around the handler: its success is written, its failure answered and written.
  const complete = <R>(handler: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, R>) =>
    Effect.matchCauseEffect(handler, {
      onFailure: recover,
      onSuccess: respond,
    }) as Effect.Effect<void>;
  const baseKeys = new Set(base.map(([key]) => key));
  /** A route's program, and the services it adds to its requests' context (see `RouteServices`). */
  const programOf = (route: FoundRoute["handler"]): RouteProgram => {
    let program = programs.get(route);
    if (program === undefined) {
      const added = routeServicesOf(route.handler);
      const routeHandler = (added?.handler ?? route.handler) as typeof route.handler;
      const handler = route.uninterruptible ? Effect.uninterruptible(routeHandler) : routeHandler;
      program = {
        effect: complete(fast.wrap(handler)),
        services:
          added === undefined
            ? []
            : [...added.services.unsafeMap].filter(([key]) => !baseKeys.has(key)),
      };
      programs.set(route, program);
    }
    return program;
  };
  const notFound = fast.notFound;
  const unmatched = Effect.isEffect(notFound) ? complete(notFound) : undefined;
  /** Closes the request scope of a fiber that ended before `respond` closed it. */
  const closeScopeAfter = (
    fiber: RequestFiber,
    scope: Scope.CloseableScope,
    exit: Exit.Exit<unknown, unknown>,
    res: ServerResponse,
  ) => {
    const closing = closeRequestScope(scope, exit);
    if (closing === Effect.void) return;
    const closer = Runtime.runFork(childRuntime(fiber), closing);
    if (closer.unsafePoll() === null) inFlight.track(res, closer);
  };
  const run = (
    map: Map<string, unknown>,
    request: NodeServerRequest,
    program: Effect.Effect<void>,
  ) => {
    const scope = newScope();
    map.set(Scope.Scope.key, scope);
    const fiber = fork(Context.unsafeMake(map), program);
    const exit = fiber.unsafePoll();
    if (exit !== null) {
      closeScopeAfter(fiber, scope, exit, request.response);
      return;
    }
    inFlight.track(request.response, fiber, (exit) =>
      closeScopeAfter(fiber, scope, exit, request.response),
    );
    request.markWaited();
  };
  return (req, res) => {
    inFlight.arrive(req, res);
    const request = canonicalRequest(req, res);
    if (request === undefined) return;
    const found = fast.routes.find(request.method, request.url);
    if (found === undefined) {
      if (unmatched === undefined) {
        // A fixed string response: written synchronously, nothing left to run.
        writeNodeResponse(res, request.method, notFound as HttpServerResponse.HttpServerResponse);
        return;
      }
      const map = mapOf(base);
      map.set(HttpServerRequest.HttpServerRequest.key, request);
      map.set(HttpServerRequest.ParsedSearchParams.key, {});
      run(map, request, unmatched);
      return;
    }
    const route = found.handler;
    const program = programOf(route);
    const map = mapOf(base);
    for (let i = 0; i < program.services.length; i++) {
      const entry = program.services[i] as readonly [string, unknown];
      map.set(entry[0], entry[1]);
    }
    map.set(
      HttpServerRequest.HttpServerRequest.key,
      route.prefix._tag === "Some"
        ? request.modify({ url: request.url.slice(route.prefix.value.length) || "/" })
        : request,
    );
    map.set(HttpServerRequest.ParsedSearchParams.key, found.searchParams);
    map.set(HttpRouter.RouteContext.key, {
      [HttpRouter.RouteContextTypeId]: HttpRouter.RouteContextTypeId,
      route,
      params: found.params,
    });
    run(map, request, program.effect);
  };
};

const listen = (server: Server, options: NodeServerOptions) =>
  Effect.async<void, HttpServerError.ServeError>((resume) => {
    const onError = (cause: Error) =>
      resume(Effect.fail(new HttpServerError.ServeError({ cause })));
    server.once("error", onError);
    server.listen(options.port, options.host, () => {
      server.off("error", onError);
      resume(Effect.void);
    });
  });

/**
 * node's HTTP server, with an idle sweep that spares responses still being written: node 20's own
 * `closeIdleConnections` (which `close()` runs) also destroys a connection whose response has
 * ended while its bytes still wait in the socket for a slow reader, cutting that body short.
 * Here the sweep hands every connection to `closeWhenIdle`.
 */
class DrainableServer extends Server {
  private readonly sockets = new Set<Socket>();

  constructor(private readonly closeWhenIdle: (socket: Socket) => void) {
    super();
    this.on("connection", (socket: Socket) => {
      this.sockets.add(socket);
      socket.once("close", () => this.sockets.delete(socket));
    });
  }

  override closeIdleConnections(): void {
    for (const socket of this.sockets) this.closeWhenIdle(socket);
  }
}

/**
 * How long a connection that has not sent a request yet is kept open once the drain has begun,
 * for a first request already on its way (ms). Longer would hold every shutdown for clients that
 * open a connection ahead of need (browsers' preconnects) and never use it.
 */
const FIRST_REQUEST_GRACE = 500;

/**
 * Graceful stop: no new connections; every connection closed as soon as it has no request left
 * to answer and its bytes are out (idle keep-alive connections at once, one that has not sent a
 * request yet after a short grace, a response still being written to a slow reader once it is out); the last response of each connection, in flight or
 * arriving while draining, answered with `Connection: close`. Done when every connection is
 * closed and every tracked request has completed. At the deadline the remaining connections are
 * closed, which interrupts their requests; with `force`, that is done at once.
 */
const makeDrain = (timeout: number, force: boolean) => {
  // Each running fiber with the response it answers (a request may have two: its own, and the
  // one closing its scope after it failed or was interrupted).
  const running = new RunningRequests();
  // The newest response of a connection queued behind another at its arrival (pipelining).
  const queuedLast = new WeakMap<Socket, ServerResponse>();
  // The response the drain chose to close its connection.
  const closers = new Map<Socket, ServerResponse>();
  let draining = false;
  let onSettled: (() => void) | undefined;

  const socketOf = (res: ServerResponse) => res.req.socket;
  /** The response still queued behind the one being written on `socket`, if any. */
  const waiting = (socket: Socket) => {
    const queued = queuedLast.get(socket);
    return queued !== undefined && queued.socket === null && !queued.writableFinished
      ? queued
      : undefined;
  };
  const answering = (socket: Socket) => {
    if (waiting(socket) !== undefined) return true;
    for (const res of running.responses()) if (socketOf(res) === socket) return true;
    return false;
  };
  const awaitingDrain = new WeakSet<Socket>();
  // Connections that have carried a request. One that has not yet may be a client's first
  // request on its way (a connection accepted, or handed over by node:cluster's primary, just as
  // the drain began): it gets a short grace to send it, answered with `Connection: close`.
  const served = new WeakSet<Socket>();
  const awaitingFirst = new WeakSet<Socket>();
  /** Closes `socket` once it has no request left to answer and what it writes is out. */
  const closeWhenIdle = (socket: Socket): void => {
    if (socket.destroyed || answering(socket)) return;
    if (!served.has(socket)) {
      if (awaitingFirst.has(socket)) return;
      awaitingFirst.add(socket);
      setTimeout(() => {
        if (!served.has(socket)) socket.destroy();
      }, FIRST_REQUEST_GRACE).unref();
      return;
    }
    if (socket.writableLength === 0) socket.destroy();
    // A response still going out to a slow reader. (Fewer bytes than the high-water mark raise
    // no `drain`: the keep-alive timeout closes those connections.)
    else if (socket.writableNeedDrain && !awaitingDrain.has(socket)) {
      awaitingDrain.add(socket);
      socket.once("drain", () => {
        awaitingDrain.delete(socket);
        closeWhenIdle(socket);
      });
    }
  };
  /** Makes `res` the last response of its connection: `Connection: close`, unless already sent. */
  const closeAfter = (socket: Socket, res: ServerResponse) => {
    const previous = closers.get(socket);
    if (previous === res) return;
    if (previous !== undefined && !previous.headersSent) previous.shouldKeepAlive = true;
    closers.delete(socket);
    if (res.shouldKeepAlive && !res.headersSent) {
      res.shouldKeepAlive = false;
      closers.set(socket, res);
    }
  };

  const server = new DrainableServer(closeWhenIdle);
  const tracker: InFlight = {
    arrive: (req, res) => {
      served.add(req.socket);
      if (res.socket === null) queuedLast.set(req.socket, res);
      if (draining) closeAfter(req.socket, res);
    },
    track: (res, fiber, onExit) => {
      const entry = running.add(res);
      res.on("close", () => {
        if (!res.writableEnded)
          fiber.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId as never);
      });
      fiber.addObserver((exit) => {
        onExit?.(exit);
        running.remove(entry);
        if (draining && res.writableFinished) closeWhenIdle(socketOf(res));
        if (running.size === 0) onSettled?.();
      });
    },
  };
  const drain = Effect.async<void>((resume) => {
    let closed = !server.listening;
    let requestsDone = running.size === 0;
    let deadline: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      if (!closed || !requestsDone || deadline === undefined) return;
      clearTimeout(deadline);
      deadline = undefined;
      onSettled = undefined;
      resume(Effect.void);
    };
    draining = true;
    server.keepAliveTimeout = 1;
    // The last response of each connection with a request in flight closes it.
    const newest = new Map<Socket, ServerResponse>();
    for (const res of running.responses()) newest.set(socketOf(res), res);
    for (const [socket, res] of newest) {
      const last = waiting(socket) ?? res;
      closeAfter(socket, last);
      last.once("finish", () => closeWhenIdle(socket));
    }
    deadline = setTimeout(() => {
      requestsDone = true;
      server.closeAllConnections();
      finish();
    }, timeout);
    onSettled = () => {
      requestsDone = true;
      finish();
    };
    // Closing every connection interrupts their requests; the stop still waits for them to end.
    if (force) server.closeAllConnections();
    if (closed) finish();
    else {
      // Runs the sweep of `DrainableServer` on every connection.
      server.close(() => {
        closed = true;
        finish();
      });
    }
    return Effect.sync(() => {
      clearTimeout(deadline);
      onSettled = undefined;
    });
  });
  return { server, tracker, drain };
};

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
    const stop = makeDrain(
      options.shutdownTimeout ?? DEFAULT_SHUTDOWN_TIMEOUT,
      options.forceCloseConnections === true,
    );
    const { server, tracker } = stop;
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
    const hold: Handler = (req, res) => {
      early.push([req, res]);
    };
    server.on("request", hold);
    yield* listen(server, options);
    shutdown?.setShuttingDown(false);
    // Effect's private shapes the fast path relies on, checked once (public fallbacks otherwise).
    const newScope = yield* makeRequestScopes;
    const fiberClass = yield* requestFiberClass;
    const address = server.address();
    return HttpServer.make({
      address:
        typeof address === "string"
          ? { _tag: "UnixAddress", path: address }
          : {
              _tag: "TcpAddress",
              hostname: address?.address ?? "0.0.0.0",
              port: address?.port ?? options.port,
            },
      serve: (app, middleware) =>
        Effect.gen(function* () {
          const runtime = yield* Effect.runtime<never>();
          const fast = fastAppOf(app);
          const handler =
            fast !== undefined && middleware === undefined && fast.routes.eligible()
              ? fastHandler(runtime, fast, newScope, tracker, fiberClass)
              : genericHandler(
                  runtime,
                  app as HttpApp.Default<unknown, never>,
                  middleware,
                  tracker,
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
