import * as HttpRouter from "@effect/platform/HttpRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import * as Scope from "effect/Scope";
import type { Enhancers } from "../pipeline/internal/enhancers.js";
import { HttpExecution, type RouteTarget } from "../pipeline/internal/execution.js";
import { type DirectBody, recordDirectRoute } from "../server/internal/FastPath.js";
import type { RouteServices } from "./RoutePlan.js";
import type { Step } from "./RouteSteps.js";

const unresolved: Enhancers = { guards: [], interceptors: [], filters: [], pipes: [] };

/**
 * A route's Effect: the request's execution context made from its services, then `run`.
 * `fixed` are the route's enhancers when none is request-scoped (else resolved per request).
 */
export const routeEntry = (
  run: Step,
  dtoType: unknown,
  target: RouteTarget,
  fixed: Enhancers | undefined,
): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, RouteServices> => {
  const enhancers = fixed ?? unresolved;
  // The request's services read in one step (`contextWithEffect` takes two).
  const body: DirectBody = (fiber) => {
    const services = fiber.currentContext as Context.Context<RouteServices>;
    return run(
      new HttpExecution(
        serviceOf(services, HttpServerRequest.HttpServerRequest, requestKey),
        serviceOf(services, HttpRouter.RouteContext, routeKey).params,
        serviceOf(services, HttpServerRequest.ParsedSearchParams, queryKey),
        dtoType,
        target,
        serviceOf(services, Scope.Scope, scopeKey),
        enhancers,
      ),
    );
  };
  const entry = Effect.withFiberRuntime(body);
  // Strata's server calls `body` in its own first step (see `recordDirectRoute`).
  recordDirectRoute(entry, body);
  return entry as Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, RouteServices>;
};

const requestKey = HttpServerRequest.HttpServerRequest.key;
const routeKey = HttpRouter.RouteContext.key;
const queryKey = HttpServerRequest.ParsedSearchParams.key;
const scopeKey = Scope.Scope.key;

/**
 * The service of `tag` (whose key is `key`) in a request's context: one Map lookup, the key
 * known in advance (`Context.get` makes two, through each tag's own `key`); `Context.get` and
 * its error when the service is absent.
 */
const serviceOf = <I, S>(
  services: Context.Context<RouteServices>,
  tag: Context.Tag<I, S>,
  key: string,
): S => {
  const value = services.unsafeMap.get(key);
  return value === undefined ? Context.get(services as Context.Context<I>, tag) : (value as S);
};
