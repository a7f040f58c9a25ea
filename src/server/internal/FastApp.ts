import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import type * as Cause from "effect/Cause";
import type * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { FastRoutes } from "./FastRouter.js";

/** What an app offers the fast server besides its Effect: its routes and its error handling. */
export interface FastApp {
  readonly routes: FastRoutes;
  /** Whether request fibers feed Effect's built-in fiber metrics (see `ServeOptions`). */
  readonly fiberMetrics: boolean;
  /**
   * Runs the app's middleware, if any, around a route handler (whose failures it sees as
   * responses). What still fails is answered by {@link FastApp.recover}: the server maps
   * failures and writes the response in one step.
   */
  readonly wrap: <E, R>(
    handler: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, R>;
  /** Whether {@link FastApp.wrap} adds nothing (no middleware): route handlers run as they are. */
  readonly bare: boolean;
  /** The response for a failure of a wrapped handler. */
  readonly recover: (
    cause: Cause.Cause<unknown>,
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse>;
  /**
   * The answer for a request no route matches: a fixed response, written without a fiber, or
   * (when middleware must see such requests too) an Effect run like a wrapped route handler.
   */
  readonly notFound:
    | HttpServerResponse.HttpServerResponse
    | Effect.Effect<
        HttpServerResponse.HttpServerResponse,
        unknown,
        HttpServerRequest.HttpServerRequest | Scope.Scope
      >;
}

/** The key under which an HTTP app carries its {@link FastApp}. */
export const FastAppId: unique symbol = Symbol.for("effect-strata/server/FastApp");

/** Attaches a {@link FastApp} to an HTTP app; servers that do not know it just run the app. */
export const withFastApp = <A extends object>(app: A, fast: FastApp): A =>
  Object.assign(app, { [FastAppId]: fast });

/** The {@link FastApp} of an HTTP app, when it has one. */
export const fastAppOf = (app: unknown): FastApp | undefined =>
  typeof app === "object" && app !== null && FastAppId in app
    ? (app as { [FastAppId]: FastApp })[FastAppId]
    : undefined;
