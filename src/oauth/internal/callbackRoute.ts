/**
 * `GET <base>/:provider/callback`: completes an authorization. The transaction is consumed
 * first, the callback checked by the pipeline, a link checked against the user who started it,
 * then the success answer; every outcome clears the transaction cookie, and a failure goes to
 * `errorRedirect` (`?error=<code>`) when there is one.
 *
 * @since 0.1.0
 */
import * as HttpLayerRouter from "@effect/platform/HttpLayerRouter";
import * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Cause from "effect/Cause";
import * as Effect from "effect/Effect";
import * as Either from "effect/Either";
import * as Option from "effect/Option";
import { type CodedFailure, codedFailureResponse } from "../../http/CodedFailure.js";
import { causeToResponse } from "../../http/ErrorResponse.js";
import { secured } from "../../session/internal/securityHeaders.js";
import { linkOwner } from "../LinkOwner.js";
import type { OAuthTransaction, TransactionRedirects } from "../OAuthTransaction.js";
import { withErrorCode } from "../RedirectPolicy.js";
import { clearTransactionCookie, readTransactionCookie } from "../TransactionCookie.js";
import { callbackRedirects, type Query, queryParam, queryRedirects } from "./queryRedirects.js";
import {
  failureResponse,
  handlerFailureCode,
  invalidIntent,
  logFailure,
  logHandlerFailure,
  sessionRequired,
} from "./routeFailures.js";
import type { RouteSetup } from "./routeSetup.js";
import { successResponse } from "./successResponse.js";

/**
 * A link refused: with the `code` of a coded failure (redirected to `errorRedirect` when there
 * is one), or without (a store that cannot answer: answered as is).
 */
interface Refusal {
  readonly code?: string;
  readonly response: HttpServerResponse.HttpServerResponse;
}

const refused = (failure: CodedFailure): Refusal => ({
  code: failure.code,
  response: codedFailureResponse(failure),
});

/** The callback's parameters, read as own properties of the query. */
const callbackParams = (query: Query) => ({
  state: queryParam(query, "state"),
  code: queryParam(query, "code"),
  iss: queryParam(query, "iss"),
  error: queryParam(query, "error"),
});

/**
 * The signed-in user a link (its intent bound by the state) is made for: the user who started
 * it, still signed in; `None` for a sign-in.
 */
const linkingUser = (setup: RouteSetup, transaction: Option.Option<OAuthTransaction>) =>
  Effect.gen(function* () {
    if (Option.isNone(transaction) || transaction.value.intent !== "link") {
      return Either.right<Option.Option<unknown>>(Option.none());
    }
    const { sessions } = setup;
    if (setup.options.session?.link === undefined || sessions === undefined) {
      return Either.left(refused(invalidIntent));
    }
    const signedIn = yield* Effect.either(sessions.current);
    if (Either.isLeft(signedIn)) {
      return Either.left<Refusal>({ response: yield* failureResponse(Cause.fail(signedIn.left)) });
    }
    // Linked only to the user who started the link (not whoever signed in since).
    if (
      Option.isNone(signedIn.right) ||
      linkOwner(signedIn.right.value) !== transaction.value.linkOwner
    ) {
      return Either.left(refused(sessionRequired));
    }
    return Either.right(signedIn.right);
  });

/** The callback route over `setup`. */
export const callbackRoute = (setup: RouteSetup) => {
  const { oauth, store, providers } = setup;
  const succeed = successResponse(setup);

  return Effect.gen(function* () {
    const params = yield* HttpLayerRouter.params;
    const p = providers.get(params.provider ?? "");
    // No cookie is touched for a name that is not a provider (SECURITY.md 16).
    if (p === undefined) return setup.unknownProvider;
    const secure = setup.isSecure(p);
    const request = yield* HttpServerRequest.HttpServerRequest;
    const query = yield* HttpServerRequest.ParsedSearchParams;
    const fromQuery = queryRedirects(query, setup.redirectOrigins);
    // The transaction is consumed first, whatever happens next (SECURITY.md 3).
    const cookie = readTransactionCookie(request, secure);
    const finish = (response: HttpServerResponse.HttpServerResponse) =>
      clearTransactionCookie(secured(response), secure);
    const taken = Option.isNone(cookie)
      ? Either.right(Option.none())
      : yield* Effect.either(store.take(cookie.value, setup.clientKey(request)));
    // A store that cannot answer or is full: 503, the cookie cleared as on every outcome.
    if (Either.isLeft(taken)) return finish(yield* failureResponse(Cause.fail(taken.left)));
    const transaction = taken.right;

    if (Either.isLeft(fromQuery)) {
      yield* logFailure(fromQuery.left, p.name);
      return finish(codedFailureResponse(fromQuery.left));
    }
    const stored: TransactionRedirects = Option.match(transaction, {
      onNone: () => ({}),
      onSome: (tx) => tx.redirects,
    });
    const redirects = callbackRedirects(fromQuery.right, stored);
    const failWith = (code: string, response: HttpServerResponse.HttpServerResponse) =>
      finish(
        redirects.error === undefined
          ? response
          : HttpServerResponse.redirect(withErrorCode(redirects.error, code), { status: 302 }),
      );

    const outcome = yield* Effect.either(
      oauth.callback(p.name, callbackParams(query), transaction),
    );
    if (Either.isLeft(outcome)) {
      yield* logFailure(outcome.left, p.name);
      return failWith(outcome.left.code, codedFailureResponse(outcome.left));
    }
    const current = yield* linkingUser(setup, transaction);
    if (Either.isLeft(current)) {
      const { code, response } = current.left;
      return code === undefined ? finish(response) : failWith(code, response);
    }
    return yield* succeed(outcome.right, redirects, current.right).pipe(
      Effect.map(finish),
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause)
          ? Effect.interrupt
          : Effect.zipRight(
              logHandlerFailure(cause, redirects.error !== undefined),
              Effect.map(failureResponse(cause), (response) =>
                failWith(handlerFailureCode(cause), response),
              ),
            ),
      ),
    );
  }).pipe(
    Effect.catchAllCause((cause) => Effect.map(causeToResponse(cause), secured)),
    Effect.withSpan("OAuthRoutes.callback"),
  );
};
