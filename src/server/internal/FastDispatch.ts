import type { ServerResponse } from "node:http";
import * as HttpRouter from "@effect/platform/HttpRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import type * as Exit from "effect/Exit";
import * as Runtime from "effect/Runtime";
import * as Scope from "effect/Scope";
import { canonicalRequest } from "./CanonicalRequest.js";
import type { FastApp } from "./FastApp.js";
import type { FoundRoute } from "./FastRouter.js";
import type { InFlight, RequestFiber, RequestListener } from "./InFlight.js";
import { entriesOf, mapOf } from "./MapCopies.js";
import { writeNodeResponse } from "./NodeResponseWriter.js";
import type { NodeServerRequest } from "./NodeServerRequest.js";
import {
  childRuntime,
  type FiberRuntimeClass,
  makeRequestFork,
  requestFlags,
} from "./RequestFibers.js";
import { closeRequestScope } from "./RequestScope.js";
import { routePrograms } from "./RoutePrograms.js";

/**
 * The route and parameters of a request, as the platform's `HttpRouter.RouteContext` (made as a
 * class: an object literal with a computed symbol key is built property by property).
 */
class FoundRouteContext {
  declare readonly [HttpRouter.RouteContextTypeId]: HttpRouter.RouteContextTypeId;
  constructor(
    readonly route: FoundRoute["handler"],
    readonly params: FoundRoute["params"],
  ) {}
}
Object.assign(FoundRouteContext.prototype, {
  [HttpRouter.RouteContextTypeId]: HttpRouter.RouteContextTypeId,
});

const requestKey = HttpServerRequest.HttpServerRequest.key;
const queryKey = HttpServerRequest.ParsedSearchParams.key;
const routeKey = HttpRouter.RouteContext.key;
const scopeKey = Scope.Scope.key;

/**
 * The fast path: the route is found before any fiber exists, the request's whole context
 * (request, route, query, scope) is built in one step, and the fiber runs the route's program
 * (see `RoutePrograms`), which maps failures to responses and writes, usually without leaving
 * the node `request` event.
 */
export const fastDispatch = (
  runtime: Runtime.Runtime<never>,
  fast: FastApp,
  newScope: () => Scope.CloseableScope,
  inFlight: InFlight,
  fiberClass: FiberRuntimeClass | undefined,
): RequestListener => {
  const appServices = entriesOf(runtime.context.unsafeMap);
  // Without the app's scope: every request sets its own (one Map entry fewer to overwrite).
  const base = appServices.filter(([key]) => key !== scopeKey);
  const fork = makeRequestFork(
    runtime,
    requestFlags(runtime.runtimeFlags, fast.fiberMetrics),
    fiberClass,
  );
  const { programOf, unmatched } = routePrograms(fast, new Set(appServices.map(([key]) => key)));
  const notFound = fast.notFound as HttpServerResponse.HttpServerResponse;
  /** Closes the request scope of a fiber that ended before its response step closed it. */
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
  /** Runs `program` on a new fiber with the request's services `map` and a new request scope. */
  const run = (
    map: Map<string, unknown>,
    request: NodeServerRequest,
    program: Effect.Effect<void>,
  ) => {
    const scope = newScope();
    map.set(scopeKey, scope);
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
  // Named, as the other hot closures, so that profiles name it.
  const onFastRequest: RequestListener = (req, res) => {
    inFlight.arrive(req, res);
    const request = canonicalRequest(req, res);
    if (request === undefined) return;
    const found = fast.routes.find(request.method, request.url);
    if (found === undefined) {
      if (unmatched === undefined) {
        // A fixed string response: written synchronously, nothing left to run.
        writeNodeResponse(res, request.method, notFound);
        return;
      }
      const map = mapOf(base);
      map.set(requestKey, request);
      map.set(queryKey, {});
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
      requestKey,
      route.prefix._tag === "Some"
        ? request.modify({ url: request.url.slice(route.prefix.value.length) || "/" })
        : request,
    );
    map.set(queryKey, found.searchParams);
    map.set(routeKey, new FoundRouteContext(route, found.params));
    run(map, request, program.effect);
  };
  return onFastRequest;
};
