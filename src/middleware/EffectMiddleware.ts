import type * as HttpMiddleware from "@effect/platform/HttpMiddleware";
import type * as Effect from "effect/Effect";
import type * as Scope from "effect/Scope";
import type { StartupError } from "../di/StartupError.js";

/**
 * The classic face of a middleware written in Effect: a class whose {@link build} makes its
 * `HttpMiddleware` once, at startup, in the app's scope (so what it opens, a Redis connection
 * for instance, is closed at shutdown). Every built-in middleware (`CorsMiddleware`,
 * `RateLimitMiddleware`, ...) is one; give an instance, or the class, to `app.use(...)`.
 *
 * @example
 * class PoweredBy extends EffectMiddleware {
 *   build() {
 *     return Effect.succeed(Middleware.make((app) =>
 *       Effect.map(app, HttpServerResponse.setHeader("x-powered-by", "strata"))));
 *   }
 * }
 *
 * @since 0.1.0
 * @category middleware
 */
export abstract class EffectMiddleware {
  /** Makes the middleware; a failure (a bad option, say) aborts the app's start. */
  abstract build(): Effect.Effect<HttpMiddleware.HttpMiddleware, StartupError, Scope.Scope>;
}
