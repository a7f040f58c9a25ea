/**
 * The session routes of the built-in sign-in: `GET <base>/session` answers the signed-in
 * user's session data as JSON (401 without one), `POST <base>/logout` ends the session (403
 * from another site, SECURITY.md 29).
 *
 * @since 0.1.0
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Option from "effect/Option";
import { causeToResponse } from "../../http/ErrorResponse.js";
import { ForbiddenError, UnauthorizedError } from "../../http/HttpError.js";
import { jsonResponse } from "../../http/TextResponse.js";
import { isCrossSite } from "../../middleware/SameOrigin.js";
import type { SessionApi } from "../Session.js";
import { secured, securityHeaders } from "./securityHeaders.js";

/** What the session routes are built from, checked at startup by their caller. */
export interface SessionRoutesOptions {
  /** Where they live: `<base>/session`, `<base>/logout`. */
  readonly base: `/${string}`;
  readonly sessions: SessionApi<unknown>;
  /** The app's own origins: a logout from any other site is refused. */
  readonly appOrigins: ReadonlySet<string>;
  /** Where a browser lands after a logout (a 303), already validated; none: a 204. */
  readonly logoutRedirect: Option.Option<string>;
}

/** `GET <base>/session` and `POST <base>/logout` over `sessions`. */
export const sessionRoutes = (
  options: SessionRoutesOptions,
): Effect.Effect<ReadonlyArray<HttpLayerRouter.Route<never, never>>> =>
  Effect.gen(function* () {
    const { base, sessions, appOrigins } = options;
    const loggedOut = Option.match(options.logoutRedirect, {
      onNone: () => HttpServerResponse.empty({ status: 204, headers: securityHeaders }),
      onSome: (location) =>
        HttpServerResponse.redirect(location, { status: 303, headers: securityHeaders }),
    });
    const unauthorized = secured(yield* causeToResponse(Cause.fail(new UnauthorizedError())));
    const forbidden = secured(yield* causeToResponse(Cause.fail(new ForbiddenError())));
    const failed = (cause: Cause.Cause<unknown>) => Effect.map(causeToResponse(cause), secured);

    const current = Effect.map(
      sessions.current,
      Option.match({
        onNone: () => unauthorized,
        onSome: (data) => secured(jsonResponse(data)),
      }),
    ).pipe(Effect.catchAllCause(failed));

    const logout = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      isCrossSite(request.headers, appOrigins)
        ? Effect.succeed(forbidden)
        : Effect.as(sessions.destroy, loggedOut),
    ).pipe(Effect.catchAllCause(failed));

    return [
      HttpLayerRouter.route("GET", `${base}/session`, current),
      HttpLayerRouter.route("POST", `${base}/logout`, logout),
    ] as ReadonlyArray<HttpLayerRouter.Route<never, never>>;
  });
