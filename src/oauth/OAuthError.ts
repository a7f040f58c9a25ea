/**
 * The failures of the OAuth pipeline, one tagged error per failure. They are seen over HTTP
 * (the built-in routes answer each with its own status and a stable `error` code), so they are
 * `Schema.TaggedError`s. None of them carries a secret, a code, a token or an upstream body:
 * only the provider name, a short reason from a fixed list and, at most, an HTTP status or a
 * standard OAuth error code.
 *
 * @since 0.1.0
 */
import * as Respondable from "@effect/platform/HttpServerRespondable";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import * as Data from "effect/Data";
import * as Effect from "effect/Effect";
import * as Schema from "effect/Schema";
import { CodedError, codedFailureResponse } from "../http/CodedFailure.js";
import { CodedHttpError } from "../http/CodedHttpError.js";
import { OAuthErrorCode, toOAuthErrorCode } from "./OAuthErrorCode.js";

export { OAuthErrorCode, toOAuthErrorCode };

/**
 * The provider name in `/auth/:provider` is not one of the configured providers. 404.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnknownProvider extends CodedError<UnknownProvider>(
  "effect-strata/oauth/UnknownProvider",
)(
  "UnknownProvider",
  {},
  { status: 404, code: "unknown_provider", message: "Unknown OAuth provider" },
) {}

/**
 * Why a state was refused (never shown to the client: the body always says `Invalid state`).
 *
 * @since 0.1.0
 * @category errors
 */
export const InvalidStateReason = Schema.Literal(
  "missing_transaction",
  "missing_state",
  "state_mismatch",
  "expired",
  "wrong_provider",
  "issuer_mismatch",
  "missing_verifier",
);

/**
 * The callback's state does not match a live transaction of this browser for this provider:
 * no transaction cookie, a tampered, truncated, expired or already used one, a missing, empty,
 * repeated or different `state`, another provider's transaction, or a wrong `iss`. 401
 * `Invalid state`.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidState extends CodedError<InvalidState>("effect-strata/oauth/InvalidState")(
  "InvalidState",
  { provider: Schema.String, reason: InvalidStateReason },
  { status: 401, code: "invalid_state", message: "Invalid state" },
) {}

/**
 * The provider redirected back with `error=...` (the user declined, or the request was
 * refused). Only a standard error code is kept; `error_description` is dropped. 401.
 *
 * @since 0.1.0
 * @category errors
 */
export class ProviderErrorResponse extends CodedError<ProviderErrorResponse>(
  "effect-strata/oauth/ProviderErrorResponse",
)(
  "ProviderErrorResponse",
  { provider: Schema.String, oauthError: OAuthErrorCode },
  {
    status: 401,
    code: "provider_error",
    message: (failure) =>
      failure.oauthError === "other"
        ? "The provider refused the authorization"
        : `The provider refused the authorization (${failure.oauthError})`,
  },
) {}

/**
 * The token endpoint refused the code (expired, already used, wrong verifier or redirect URI,
 * bad client credentials), or the callback carried no code. 401.
 *
 * @since 0.1.0
 * @category errors
 */
export class CodeRejected extends CodedError<CodeRejected>("effect-strata/oauth/CodeRejected")(
  "CodeRejected",
  { provider: Schema.String, oauthError: OAuthErrorCode },
  { status: 401, code: "code_rejected", message: "Authorization code rejected" },
) {}

/**
 * The token endpoint answered something that is not a usable token response (not JSON, no
 * `access_token`, an unexpected error body, an ID token whose nonce does not match, or, for
 * OpenID Connect providers, a missing ID token or one that fails verification: signature,
 * `iss`, `aud`, `exp`). 502.
 *
 * @since 0.1.0
 * @category errors
 */
export class TokenResponseMalformed extends CodedError<TokenResponseMalformed>(
  "effect-strata/oauth/TokenResponseMalformed",
)(
  "TokenResponseMalformed",
  { provider: Schema.String, status: Schema.optional(Schema.Number) },
  {
    status: 502,
    code: "token_response_malformed",
    message: "The provider answered with a malformed token response",
  },
) {}

/**
 * The provider could not be reached (DNS, connection, TLS) or answered with an unexpected
 * status (5xx and the like). 502.
 *
 * @since 0.1.0
 * @category errors
 */
export class ProviderUnreachable extends CodedError<ProviderUnreachable>(
  "effect-strata/oauth/ProviderUnreachable",
)(
  "ProviderUnreachable",
  {
    provider: Schema.String,
    /** The upstream status when there was an answer. */
    status: Schema.optional(Schema.Number),
    /** A system error code such as `ECONNREFUSED` when there was none. */
    detail: Schema.optional(Schema.String),
  },
  { status: 502, code: "provider_unreachable", message: "The provider is unavailable" },
) {}

/**
 * An outbound call to the provider (token exchange, profile, refresh, revocation) did not
 * complete within the configured timeout (10 s by default). 504.
 *
 * @since 0.1.0
 * @category errors
 */
export class ProviderTimeout extends CodedError<ProviderTimeout>(
  "effect-strata/oauth/ProviderTimeout",
)(
  "ProviderTimeout",
  {
    provider: Schema.String,
    operation: Schema.Literal("token", "profile", "refresh", "revoke"),
  },
  { status: 504, code: "provider_timeout", message: "The provider did not answer in time" },
) {}

/**
 * The profile could not be fetched or read: a non-2xx answer, a body over the size cap, a
 * payload that does not have the expected shape, or (OpenID Connect) a userinfo answer about
 * another subject than the ID token. 502.
 *
 * @since 0.1.0
 * @category errors
 */
export class ProfileFetchFailed extends CodedError<ProfileFetchFailed>(
  "effect-strata/oauth/ProfileFetchFailed",
)(
  "ProfileFetchFailed",
  {
    provider: Schema.String,
    /** `subject_mismatch`: the userinfo `sub` is not the ID token's (OpenID Connect). */
    reason: Schema.Literal("status", "too_large", "malformed", "subject_mismatch"),
    status: Schema.optional(Schema.Number),
  },
  { status: 502, code: "profile_fetch_failed", message: "Could not fetch the user profile" },
) {}

/**
 * A `successRedirect`/`errorRedirect` that is neither a plain relative path nor on a configured
 * origin. 400; the value is never echoed.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidRedirect extends CodedError<InvalidRedirect>(
  "effect-strata/oauth/InvalidRedirect",
)(
  "InvalidRedirect",
  { parameter: Schema.Literal("successRedirect", "errorRedirect") },
  { status: 400, code: "invalid_redirect", message: "Invalid redirect" },
) {}

/**
 * An in-process transaction store is full of live entries: a new transaction is refused
 * rather than an unexpired one forgotten, which would let its state be replayed (SECURITY.md
 * 41). 503 `Service Unavailable`, until entries expire.
 *
 * @since 0.1.0
 * @category errors
 */
export class TransactionStoreFull extends CodedError<TransactionStoreFull>(
  "effect-strata/oauth/TransactionStoreFull",
)(
  "TransactionStoreFull",
  {},
  { status: 503, code: "transaction_store_full", message: "Service Unavailable" },
) {}

/**
 * One client holds as many live transactions (or states taken) as a transaction store allows
 * one client (`maxPerClient`): its new transaction, or its callback, is refused so that it
 * cannot fill the store for everybody (SECURITY.md 42). 429 `Too Many Requests` with
 * `Retry-After`: the seconds until one of its entries expires. Other clients are not affected.
 *
 * @since 0.1.0
 * @category errors
 */
export class TooManyTransactions extends CodedError<TooManyTransactions>(
  "effect-strata/oauth/TooManyTransactions",
)(
  "TooManyTransactions",
  {
    /** Whole seconds until the client may start one again. */
    retryAfter: Schema.Number,
  },
  { status: 429, code: "too_many_transactions", message: "Too Many Requests" },
) {
  /** Its status, body (the standard shape plus `error`) and `Retry-After`, on any server. */
  override [Respondable.symbol]() {
    return Effect.succeed(tooManyTransactionsResponse(this));
  }
}

/**
 * The answer to {@link TooManyTransactions}: 429 in the standard shape plus
 * `error: "too_many_transactions"`, with `Retry-After`.
 *
 * @since 0.1.0
 * @category errors
 */
export const tooManyTransactionsResponse = (
  failure: TooManyTransactions,
): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.setHeader(
    codedFailureResponse(failure),
    "retry-after",
    String(Math.max(1, Math.ceil(failure.retryAfter))),
  );

/**
 * Every failure of an OAuth authorization or callback, each with its HTTP status, stable
 * `error` code and public message.
 *
 * @since 0.1.0
 * @category errors
 */
export type OAuthError =
  | UnknownProvider
  | InvalidState
  | ProviderErrorResponse
  | CodeRejected
  | TokenResponseMalformed
  | ProviderUnreachable
  | ProviderTimeout
  | ProfileFetchFailed
  | InvalidRedirect
  | TransactionStoreFull
  | TooManyTransactions;

/** The failures of a token request (exchange, refresh, revocation). @since 0.1.0 @category errors */
export type TokenError =
  | CodeRejected
  | TokenResponseMalformed
  | ProviderUnreachable
  | ProviderTimeout;

/** The failures of a profile fetch. @since 0.1.0 @category errors */
export type ProfileError = ProfileFetchFailed | ProviderUnreachable | ProviderTimeout;

const oauthErrorTags: ReadonlySet<string> = new Set([
  "UnknownProvider",
  "InvalidState",
  "ProviderErrorResponse",
  "CodeRejected",
  "TokenResponseMalformed",
  "ProviderUnreachable",
  "ProviderTimeout",
  "ProfileFetchFailed",
  "InvalidRedirect",
  "TransactionStoreFull",
  "TooManyTransactions",
]);

/** `true` for any {@link OAuthError}. @since 0.1.0 @category errors */
export const isOAuthError = (u: unknown): u is OAuthError =>
  typeof u === "object" &&
  u !== null &&
  "_tag" in u &&
  typeof u._tag === "string" &&
  oauthErrorTags.has(u._tag) &&
  "httpStatus" in u;

/**
 * An OAuth failure thrown by the classic `OAuthService`: the one classic view of every coded
 * failure (`CodedHttpError`), an `HttpError` with the status and public message of the tagged
 * error in `reason` and its stable code in `error` (`invalid_state`, `code_rejected`, ...).
 *
 * @since 0.1.0
 * @category errors
 */
export const OAuthHttpError: {
  /** The classic view of `reason`. */
  new (reason: OAuthError): OAuthHttpError;
} = CodedHttpError;

/** An {@link OAuthHttpError}: a `CodedHttpError` of an OAuth failure. @since 0.1.0 @category errors */
export type OAuthHttpError = CodedHttpError<OAuthError>;

/**
 * The provider has no such operation (facebook has no refresh, only google and twitter have
 * revocation in arctic). Never seen by the built-in routes.
 *
 * @since 0.1.0
 * @category errors
 */
export class UnsupportedOperation extends Data.TaggedError("UnsupportedOperation")<{
  readonly provider: string;
  readonly operation: "refresh" | "revoke";
}> {}
