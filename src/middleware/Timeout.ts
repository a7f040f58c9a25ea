import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import * as Fiber from "effect/Fiber";
import * as Runtime from "effect/Runtime";
import { StartupError } from "../di/StartupError.js";
import { errorResponse } from "../http/ErrorResponse.js";
import { RequestTimeoutError } from "../http/HttpError.js";
import {
  applied,
  appliedLogged,
  childRuntime,
  finishers,
  RequestDeadline,
} from "../server/internal/FastPath.js";
import * as Middleware from "./Middleware.js";

/**
 * Options of {@link make} and {@link TimeoutMiddleware}.
 *
 * @since 0.1.0
 * @category middleware
 */
export interface TimeoutOptions {
  /** Milliseconds a request may take to produce its response (default 30 000). */
  readonly timeout?: number;
}

/** The default request timeout: 30 000 ms. @since 0.1.0 @category middleware */
export const DEFAULT_TIMEOUT = 30_000;

/** The longest timeout node's timers allow: 2 147 483 647 ms (about 24.8 days). */
const MAX_TIMEOUT = 2_147_483_647;

/**
 * Runs `app` on its own fiber, started at once on the request's context and fiber refs, and
 * answers `onTimeout` if it has not answered within `millis`, after interrupting it (its
 * finalizers have run by then). A handler that completes synchronously costs that fiber
 * only: the timer is armed only when it has to wait (`Effect.timeout` would race two fibers).
 */
const within = (
  app: Middleware.App,
  millis: number,
  onTimeout: HttpServerResponse.HttpServerResponse,
): Middleware.App =>
  Effect.withFiberRuntime((parent) => {
    // The parent's context is the request's: it holds everything `app` needs.
    const fiber = Runtime.runFork(childRuntime(parent))(
      app as Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>,
    );
    // What the handler set in its fiber refs (pre-response handlers, log annotations) carries
    // over to the request's fiber, as joining it would.
    const done = fiber.unsafePoll();
    if (done !== null) return Effect.zipRight(Fiber.inheritAll(fiber), done);
    return Effect.async<HttpServerResponse.HttpServerResponse, unknown>((resume) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        resume(Effect.as(Fiber.interrupt(fiber), onTimeout));
      }, millis);
      fiber.addObserver((exit) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resume(Effect.zipRight(Fiber.inheritAll(fiber), exit));
      });
      return Effect.suspend(() => {
        clearTimeout(timer);
        return Fiber.interrupt(fiber);
      });
    });
  });

/**
 * A deadline on every request as an Effect `HttpMiddleware`: a request whose response is not
 * ready within `timeout` ms is interrupted (its finalizers and request-scoped `onModuleDestroy`
 * hooks run) and answered 408 in the standard error shape. It bounds producing the response,
 * not streaming a streamed body to the client. The handler runs on a fiber of its own, except
 * on Strata's server when the timeout comes first in the app's middleware or right after its
 * decorating ones (CORS, security headers, rate limit): the deadline is then kept on the
 * request's fiber, and the 408 gets the headers those middleware decided on.
 *
 * @since 0.1.0
 * @category middleware
 */
export const make = (
  options: TimeoutOptions = {},
): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError> => {
  const millis = options.timeout ?? DEFAULT_TIMEOUT;
  if (!Number.isFinite(millis) || millis <= 0) {
    return new StartupError({ message: `Timeout: ${millis} is not a positive number of ms` });
  }
  if (millis > MAX_TIMEOUT) {
    // node would fire such a timer after 1 ms.
    return new StartupError({
      message: `Timeout: ${millis} ms is over the ${MAX_TIMEOUT} ms timers allow`,
    });
  }
  const onTimeout = errorResponse(new RequestTimeoutError());
  const middleware = Middleware.makeInfallible((app) => within(app, millis, onTimeout));
  finishers.set(middleware, (app) => {
    const forked = within(app, millis, onTimeout);
    return (fiber, request, changes) => {
      const deadline = RequestDeadline.start(fiber, request, millis, () =>
        applied(changes, onTimeout, []),
      );
      if (deadline === undefined) {
        return changes.length === 0
          ? forked
          : Effect.flatMap(forked, (response) => appliedLogged(changes, response));
      }
      // An uninterruptible handler that overran still gets the 408.
      return Effect.flatMap(app, (response) => {
        deadline.lift();
        return appliedLogged(changes, deadline.passed ? onTimeout : response);
      });
    };
  });
  return Effect.succeed(middleware);
};
