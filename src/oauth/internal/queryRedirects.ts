/**
 * The query of the built-in routes: its parameters read as own properties only, and its
 * `successRedirect` / `errorRedirect` checked by the redirect policy.
 *
 * @since 0.1.0
 */
import * as Either from "effect/Either";
import * as Option from "effect/Option";
import { InvalidRedirect } from "../OAuthError.js";
import type { TransactionRedirects } from "../OAuthTransaction.js";
import { validateRedirect } from "../RedirectPolicy.js";

/** A parsed query string. */
export type Query = Readonly<Record<string, string | ReadonlyArray<string>>>;

/** Own properties only: `__proto__` and friends of a parsed query are never read. */
export const queryParam = (query: Query, name: string): unknown =>
  Object.hasOwn(query, name) ? query[name] : undefined;

/** Reads and validates the redirect parameters of a query. */
export const queryRedirects = (
  query: Query,
  origins: ReadonlySet<string>,
): Either.Either<TransactionRedirects, InvalidRedirect> => {
  const success = validateRedirect(queryParam(query, "successRedirect"), origins);
  if (Either.isLeft(success)) {
    return Either.left(new InvalidRedirect({ parameter: "successRedirect" }));
  }
  const error = validateRedirect(queryParam(query, "errorRedirect"), origins);
  if (Either.isLeft(error)) return Either.left(new InvalidRedirect({ parameter: "errorRedirect" }));
  return Either.right({
    ...(Option.isSome(success.right) ? { success: success.right.value } : {}),
    ...(Option.isSome(error.right) ? { error: error.right.value } : {}),
  });
};

/**
 * The redirects of a callback: those stored at the start win, those of the callback's query
 * are the fallback.
 */
export const callbackRedirects = (
  fromQuery: TransactionRedirects,
  stored: TransactionRedirects,
): TransactionRedirects => ({
  ...(fromQuery.success === undefined ? {} : { success: fromQuery.success }),
  ...(fromQuery.error === undefined ? {} : { error: fromQuery.error }),
  ...(stored.success === undefined ? {} : { success: stored.success }),
  ...(stored.error === undefined ? {} : { error: stored.error }),
});
