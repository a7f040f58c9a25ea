/**
 * `@CurrentUser()`: the signed-in session data as a handler argument.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import { param } from "../decorators/Params.js";
import type { ServiceUnavailableError, UnauthorizedError } from "../http/HttpError.js";
import type { RequestContext } from "../http/RequestContext.js";
import type { PipeTransform } from "../pipeline/PipeTransform.js";
import { onRequest, type SessionService } from "./SessionService.js";

/**
 * Reads the session data for `@CurrentUser()`: 401 without a valid session. Provided by
 * `SessionModule.forRoot`; not meant to be used directly.
 *
 * @since 0.1.0
 * @category classic
 */
export class CurrentUserPipe implements PipeTransform {
  constructor(private readonly sessions: SessionService) {}

  transform(
    _value: unknown,
    context: RequestContext,
  ): Effect.Effect<unknown, UnauthorizedError | ServiceUnavailableError> {
    return onRequest(this.sessions.session.require, context);
  }
}

/**
 * Reads the session data for `@CurrentUser({ optional: true })`: `undefined` without a valid
 * session. Provided by `SessionModule.forRoot`; not meant to be used directly.
 *
 * @since 0.1.0
 * @category classic
 */
export class OptionalCurrentUserPipe implements PipeTransform {
  constructor(private readonly sessions: SessionService) {}

  transform(
    _value: unknown,
    context: RequestContext,
  ): Effect.Effect<unknown, ServiceUnavailableError> {
    return Effect.map(onRequest(this.sessions.session.current, context), Option.getOrUndefined);
  }
}

/**
 * Options of {@link CurrentUser}.
 *
 * @since 0.1.0
 * @category classic
 */
export interface CurrentUserOptions {
  /** `undefined` instead of a 401 when there is no valid session (default `false`). */
  readonly optional?: boolean;
}

/**
 * The signed-in session data (typed by the `schema` given to `SessionModule.forRoot`; annotate
 * the parameter with it). Without a valid session the request is answered 401 `Unauthorized`,
 * or, with `{ optional: true }`, the argument is `undefined`. Only records metadata: the data
 * is read when a request arrives, once per request however many times it is asked for.
 *
 * @example
 * const User = Schema.Struct({ id: Schema.String, name: Schema.String }); // the session's data
 * type User = typeof User.Type;
 *
 * @Controller()
 * class MeController {
 *   @Get("me")
 *   me(@CurrentUser() user: User) {
 *     return user; // 401 without a session
 *   }
 *
 *   @Get()
 *   home(@CurrentUser({ optional: true }) user: User | undefined) {
 *     return { signedIn: user !== undefined };
 *   }
 * }
 *
 * @since 0.1.0
 * @category classic
 */
export const CurrentUser = (options: CurrentUserOptions = {}): ParameterDecorator =>
  param("req", undefined, [options.optional === true ? OptionalCurrentUserPipe : CurrentUserPipe]);
