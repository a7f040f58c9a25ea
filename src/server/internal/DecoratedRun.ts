/**
 * How a run of decorating middleware (`Middleware.decorating`, fused by `Middleware.compose`)
 * ends, shared by `Middleware` and the middleware that can end such a run (the timeout).
 */
import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import type * as Fiber from "effect/Fiber";
import { internalErrorResponse, logUnhandled } from "../../http/ErrorResponse.js";

type Response = HttpServerResponse.HttpServerResponse;

/** An app as middleware sees it (`Middleware.App`). */
export type App = Effect.Effect<Response, unknown, unknown>;

/** A change of the app's response a decorating middleware decided on. */
export type Change = (response: Response) => Response;

/**
 * `response` with `changes` applied, the innermost (last decided) first, as nesting would: a
 * change that throws makes the response a 500 in the standard shape for the changes outside
 * it, and its defect goes to `defects`.
 */
export const applied = (
  changes: ReadonlyArray<Change>,
  response: Response,
  defects: Array<unknown>,
): Response => {
  let changed = response;
  for (let i = changes.length - 1; i >= 0; i--) {
    try {
      changed = changes[i](changed);
    } catch (defect) {
      defects.push(defect);
      changed = internalErrorResponse;
    }
  }
  return changed;
};

/** {@link applied}, logging what threw. */
export const appliedLogged = (
  changes: ReadonlyArray<Change>,
  response: Response,
): Effect.Effect<Response> => {
  const defects: Array<unknown> = [];
  const changed = applied(changes, response, defects);
  if (defects.length === 0) return Effect.succeed(changed);
  return Effect.as(
    Effect.forEach(defects, (defect) => logUnhandled(Cause.die(defect)), { discard: true }),
    changed,
  );
};

/**
 * The end of a decorated run once every decision is made, on the request's fiber: the app,
 * its response changed by `changes`.
 */
export type Finish = (
  fiber: Fiber.RuntimeFiber<unknown, unknown>,
  request: HttpServerRequest.HttpServerRequest,
  changes: ReadonlyArray<Change>,
) => App;

/**
 * Middleware that can also end a decorated run right outside it, by its own `Finish` for the
 * app it wraps (built once per route): the timeout, which then needs no fiber of its own.
 */
export const finishers = new WeakMap<HttpMiddleware.HttpMiddleware, (app: App) => Finish>();

/**
 * The form of a composed middleware for when nothing but Strata's server runs outside it
 * (`StrataServer.serve` uses it): a timeout right inside the decorating middleware at its
 * front ends their run. With anything else outside, its answer would skip that.
 */
export const outermostForms = new WeakMap<
  HttpMiddleware.HttpMiddleware,
  HttpMiddleware.HttpMiddleware
>();
