/**
 * `SessionGuard`: lets a request through only with a valid session, for `@UseGuards`.
 *
 * @since 0.1.0
 */
import * as Effect from "effect/Effect";
import type { ServiceUnavailableError, UnauthorizedError } from "../http/HttpError.js";
import type { CanActivate } from "../pipeline/CanActivate.js";
import type { ExecutionContext } from "../pipeline/ExecutionContext.js";
import { hasSessionNow } from "./internal/SessionNow.js";
import { onRequest, type SessionService } from "./SessionService.js";

/**
 * A guard requiring a valid session: without one (no cookie, or a tampered, forged, expired or
 * unknown one, which the response clears) the request is answered 401 `Unauthorized` in the
 * standard shape before the handler runs. The session it read is the handler's: `@CurrentUser()`
 * and `SessionService` do not read it again. Provided by `SessionModule.forRoot`.
 *
 * @example
 * const User = Schema.Struct({ id: Schema.String, name: Schema.String }); // the session's data
 * type User = typeof User.Type;
 *
 * @Controller("me")
 * @UseGuards(SessionGuard)
 * class MeController {
 *   @Get()
 *   me(@CurrentUser() user: User) {
 *     return user;
 *   }
 * }
 *
 * @since 0.1.0
 * @category classic
 */
export class SessionGuard implements CanActivate {
  constructor(private readonly sessions: SessionService) {}

  canActivate(
    context: ExecutionContext,
  ): true | Effect.Effect<boolean, UnauthorizedError | ServiceUnavailableError> {
    // A valid session known at once (a sealed cookie, a memory session) passes without a step.
    return hasSessionNow(this.sessions.session, context.req)
      ? true
      : Effect.as(onRequest(this.sessions.session.require, context), true);
  }
}
