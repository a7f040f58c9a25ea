/**
 * The OAuth transaction: what the built-in routes keep between `/auth/:provider` and its
 * callback, bound to the browser by a cookie.
 *
 * @since 0.1.0
 */
import * as Duration from "effect/Duration";
import * as Schema from "effect/Schema";

/** How long a transaction lives: 10 minutes. @since 0.1.0 @category transaction */
export const TRANSACTION_TTL: Duration.Duration = Duration.minutes(10);

/**
 * Where the browser goes after the callback, validated when the transaction was started.
 *
 * @since 0.1.0
 * @category transaction
 */
export const TransactionRedirects = Schema.Struct({
  success: Schema.optional(Schema.String),
  error: Schema.optional(Schema.String),
});

/** Validated `successRedirect` / `errorRedirect`. @since 0.1.0 @category transaction */
export type TransactionRedirects = typeof TransactionRedirects.Type;

/**
 * What an authorization is for: absent, a sign-in; `"link"`, linking the provider account to
 * the user signed in when it started (`GET /auth/:provider?intent=link`). Kept in the
 * transaction, so the state binds it: a callback cannot change it.
 *
 * @since 0.1.0
 * @category transaction
 */
export const TransactionIntent = Schema.Literal("link");

/** The intent of an authorization. @since 0.1.0 @category transaction */
export type TransactionIntent = typeof TransactionIntent.Type;

/**
 * One authorization in flight: provider, state, PKCE verifier, OpenID nonce, redirects,
 * expiry (epoch milliseconds), intent (absent for a sign-in) and, for a link, who started it.
 *
 * @since 0.1.0
 * @category transaction
 */
export const OAuthTransaction = Schema.Struct({
  /** The provider's name (a built-in one, or an app-chosen OpenID Connect provider's). */
  provider: Schema.String,
  state: Schema.String,
  codeVerifier: Schema.optional(Schema.String),
  nonce: Schema.optional(Schema.String),
  redirects: TransactionRedirects,
  expiry: Schema.Number,
  intent: Schema.optional(TransactionIntent),
  /**
   * With the `link` intent: a digest of the session data of the user who started it. The
   * callback links only for a session with the same data, so a link cannot land on whoever else
   * signs in in that browser before it returns.
   */
  linkOwner: Schema.optional(Schema.String),
});

/** An OAuth transaction. @since 0.1.0 @category transaction */
export type OAuthTransaction = typeof OAuthTransaction.Type;

/** Strings JSON writes as they are, between quotes. */
const plain = /^[\w.~-]*$/;
const quoted = (value: string): string =>
  plain.test(value) ? `"${value}"` : JSON.stringify(value);

/**
 * `transaction` as JSON text: what `JSON.stringify` gives for a transaction with its members in
 * schema order. Written out directly: `JSON.stringify` costs a fixed part and a part per member
 * (0.5 µs for a transaction, measured; half of that this way), on every `GET /auth/:provider`.
 *
 * @since 0.1.0
 * @category transaction
 */
export const transactionJson = (transaction: OAuthTransaction): string => {
  const { codeVerifier, nonce, redirects, expiry, intent, linkOwner } = transaction;
  return `{"provider":${quoted(transaction.provider)},"state":${quoted(transaction.state)}${
    codeVerifier === undefined ? "" : `,"codeVerifier":${quoted(codeVerifier)}`
  }${nonce === undefined ? "" : `,"nonce":${quoted(nonce)}`},"redirects":${
    redirects.success === undefined && redirects.error === undefined
      ? "{}"
      : JSON.stringify(redirects)
  },"expiry":${Number.isFinite(expiry) ? expiry : "null"}${
    intent === undefined ? "" : `,"intent":${quoted(intent)}`
  }${linkOwner === undefined ? "" : `,"linkOwner":${quoted(linkOwner)}`}}`;
};
