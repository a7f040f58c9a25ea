/**
 * Guards for the Effect face: combinators around a route's handler Effect, the counterpart of
 * `@UseGuards` (which the classic compiler runs the same way, before the handler).
 *
 * @since 0.1.0
 */
import * as Context from "effect/Context";
import * as Effect from "effect/Effect";
import { ForbiddenError } from "../http/HttpError.js";
import type { RequestUser } from "../http/RequestContext.js";

/**
 * The authenticated user of the request, provided to the handler by {@link authenticate}
 * (what `request.user` is in the classic face).
 *
 * @since 0.1.0
 * @category guards
 */
export class CurrentUser extends Context.Tag("effect-strata/pipeline/CurrentUser")<
  CurrentUser,
  RequestUser
>() {}

const forbidden = new ForbiddenError();

/**
 * Runs `canActivate` before the handler: `true` lets the request through, `false` answers
 * 403 `Forbidden`, a failure (an `HttpError` such as `UnauthorizedError`) answers as itself.
 *
 * @example
 * declare const removeUser: Effect.Effect<HttpServerResponse.HttpServerResponse>;
 * declare const userOfToken: Effect.Effect<RequestUser, UnauthorizedError>; // from a bearer token
 *
 * const isAdmin = Effect.map(Guards.CurrentUser, (user) => user.role === "admin");
 * HttpLayerRouter.add(
 *   "DELETE",
 *   "/users/:id",
 *   removeUser.pipe(Guards.guard(isAdmin), Guards.authenticate(userOfToken)),
 * );
 *
 * @since 0.1.0
 * @category guards
 */
export const guard =
  <E2, R2>(canActivate: Effect.Effect<boolean, E2, R2>) =>
  <A, E, R>(handler: Effect.Effect<A, E, R>): Effect.Effect<A, E | E2 | ForbiddenError, R | R2> =>
    Effect.flatMap(
      canActivate,
      (allowed): Effect.Effect<A, E | ForbiddenError, R> =>
        allowed ? handler : Effect.fail(forbidden),
    );

/**
 * Authenticates the request before the handler: the user `resolve` produces is provided to
 * the handler as {@link CurrentUser}; a failure of `resolve` answers as itself.
 *
 * @since 0.1.0
 * @category guards
 */
export const authenticate =
  <E2, R2>(resolve: Effect.Effect<RequestUser, E2, R2>) =>
  <A, E, R>(
    handler: Effect.Effect<A, E, R>,
  ): Effect.Effect<A, E | E2, Exclude<R, CurrentUser> | R2> =>
    Effect.flatMap(resolve, (user) => Effect.provideService(handler, CurrentUser, user));
