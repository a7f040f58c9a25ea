/**
 * The standard OAuth error codes, and an upstream `error` value read as one of them (never
 * reflected raw).
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema";

/**
 * The standard error codes of RFC 6749 (4.1.2.1, 5.2) and OpenID Connect Core (3.1.2.6). An
 * upstream code outside this list is reported as `other`, so nothing upstream is reflected raw.
 *
 * @since 0.1.0
 * @category errors
 */
export const OAuthErrorCode = Schema.Literal(
  "invalid_request",
  "unauthorized_client",
  "access_denied",
  "unsupported_response_type",
  "invalid_scope",
  "server_error",
  "temporarily_unavailable",
  "invalid_client",
  "invalid_grant",
  "unsupported_grant_type",
  "interaction_required",
  "login_required",
  "account_selection_required",
  "consent_required",
  "other",
);

/** A standard OAuth error code, or `other`. @since 0.1.0 @category errors */
export type OAuthErrorCode = typeof OAuthErrorCode.Type;

const knownCodes: ReadonlySet<string> = new Set(OAuthErrorCode.literals);

/**
 * An upstream `error` value as an {@link OAuthErrorCode}: itself when it is a standard code,
 * `other` for anything else (never the raw text).
 *
 * @since 0.1.0
 * @category errors
 */
export const toOAuthErrorCode = (value: unknown): OAuthErrorCode =>
  typeof value === "string" && knownCodes.has(value) ? (value as OAuthErrorCode) : "other";
