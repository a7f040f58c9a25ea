/**
 * What a successful callback answers: the user signed in with a session first (with
 * `session`), then the success handler's value or response, a redirect to `successRedirect`,
 * or the callback result as JSON.
 *
 * @since 0.1.0
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Option from "effect/Option";
import { StrataResponse } from "../../http/StrataResponse.js";
import { type OAuthSignIn, toCallbackResult } from "../OAuthResult.js";
import { sessionUserOf } from "../OAuthSessionUser.js";
import type { TransactionRedirects } from "../OAuthTransaction.js";
import { validateRedirect } from "../RedirectPolicy.js";
import type { RouteSetup } from "./routeSetup.js";

/**
 * A handler's own response with its `Location` checked like `successRedirect` and replaced by
 * the validated value, the one sent (SECURITY.md 36); a refused one fails the handler.
 */
const checkedLocation =
  (origins: ReadonlySet<string>) => (response: HttpServerResponse.HttpServerResponse) => {
    const location = response.headers.location;
    if (location === undefined) return Effect.succeed(response);
    const checked = validateRedirect(location, origins);
    return Either.isRight(checked) && Option.isSome(checked.right)
      ? Effect.succeed(HttpServerResponse.setHeader(response, "location", checked.right.value))
      : Effect.dieMessage(
          "The OAuth callback handler redirected where the redirect policy refuses",
        );
  };

/**
 * Signs the user in: a new session holding the data `session.from` makes (the profile by
 * default); linking (`current`: the signed-in user's data), the data `session.link` makes.
 */
const startSession = (setup: RouteSetup) => {
  const { sessions, context } = setup;
  const from = setup.options.session?.from;
  const link = setup.options.session?.link;
  return (signIn: OAuthSignIn, current: Option.Option<unknown>) =>
    sessions === undefined
      ? Effect.void
      : Effect.flatMap(
          Option.isSome(current) && link !== undefined
            ? Effect.provide(link(signIn, current.value), context)
            : from === undefined
              ? Effect.succeed(sessionUserOf(signIn))
              : Effect.provide(from(signIn, signIn.provider), context),
          (data) => sessions.create(data),
        );
};

/** The answer of a successful callback of `signIn`, the session started first. */
export const successResponse = (setup: RouteSetup) => {
  const { sessions, context } = setup;
  const { onSuccess } = setup.options;
  const sessionFor = startSession(setup);
  const checked = checkedLocation(setup.redirectOrigins);
  return (signIn: OAuthSignIn, redirects: TransactionRedirects, current: Option.Option<unknown>) =>
    Effect.gen(function* () {
      yield* sessionFor(signIn, current);
      // Signed in with a session, the browser goes on (never the callback result, which
      // carries provider tokens): to `successRedirect`, or home.
      const next = redirects.success ?? (sessions === undefined ? undefined : "/");
      if (onSuccess === undefined) {
        return next === undefined
          ? HttpServerResponse.unsafeJson(toCallbackResult(signIn))
          : HttpServerResponse.redirect(next, { status: 302 });
      }
      const value = yield* Effect.provide(onSuccess(signIn, signIn.provider), context);
      if (HttpServerResponse.isServerResponse(value)) return yield* checked(value);
      if (value instanceof StrataResponse) {
        if (!value.sent) {
          return yield* Effect.dieMessage(
            "The OAuth callback handler returned a StrataResponse it did not send",
          );
        }
        return yield* Effect.flatMap(value.response, checked);
      }
      if (next !== undefined) return HttpServerResponse.redirect(next, { status: 302 });
      return value === undefined
        ? HttpServerResponse.empty({ status: 204 })
        : HttpServerResponse.unsafeJson(value);
    });
};
